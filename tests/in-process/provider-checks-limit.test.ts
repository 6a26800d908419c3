import { afterAll, describe, expect, it, vi } from "vitest";

// The real stripe SDK against the Stripe-compatible test server, started before the app loads.
const { fake } = await vi.hoisted(async () => {
  const { startStripeForApp } = await import("../support/in-process/stripe");
  return { fake: await startStripeForApp() };
});

import { setInquiryFee } from "../../app/server/catalog/settings.server";
import { BUYER, createDomain } from "../support/factories";
import { render } from "../support/in-process/document";
import { TEST_ORIGIN } from "../support/in-process/routes";

// Issue 13, finding 6: nobody can spend the Stripe account's API rate limit through our pages. The
// payment page and /api/confirm-payment ask Stripe at most 60 times a minute per client address (one
// budget for both); past it they answer 429 (confirm) or say so on the page, without asking Stripe.
afterAll(async () => {
  await fake.stop();
});

const postJson = async (path: string, json: unknown, clientAddress: string) => {
  const reply = await render(path, { json, clientAddress });
  return { status: reply.status, headers: reply.headers, json: JSON.parse(reply.body) as Record<string, any> };
};

describe("provider checks per address", () => {
  it(
    "the 61st check in a minute from one address is refused without asking Stripe; another address still gets answers",
    { timeout: 60_000 },
    async () => {
      await setInquiryFee(1999);
      const domain = await createDomain({ prefix: "checks" });
      const created = await postJson(
        "/api/create-payment-intent",
        { domain_name: domain.short, customer_info: BUYER },
        "10.61.0.1",
      );
      expect(created.status).toBe(200);
      const intentId = created.json.payment_intent_id as string;
      const confirm = (address: string) =>
        postJson("/api/confirm-payment", { payment_intent_id: intentId, domain_name: domain.short }, address);
      // At once: calls that come in together share one answer from Stripe (at most one question per 2 s).
      const first = await Promise.all(Array.from({ length: 60 }, () => confirm("10.61.0.2")));
      expect(first.filter((answer) => answer.status === 429)).toHaveLength(0);
      const asked = fake.requestsTo("GET", `/v1/payment_intents/${intentId}`).length;
      const refused = await confirm("10.61.0.2");
      expect(refused.status).toBe(429);
      expect(refused.json.error).toBe("Too many payment checks from your address. Please wait a minute.");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      // The payment page shares the budget: it shows the message instead of asking Stripe.
      const redirect = new URL(created.json.redirect as string, TEST_ORIGIN);
      const page = await render(redirect.pathname + redirect.search, { clientAddress: "10.61.0.2" });
      expect(page.body).toContain("Too many payment checks from your address. Please wait a minute.");
      expect(fake.requestsTo("GET", `/v1/payment_intents/${intentId}`).length).toBe(asked);
      expect((await confirm("10.61.0.3")).status).not.toBe(429);
    },
  );
});
