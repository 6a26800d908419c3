import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeDataDir, startAppServer, type AppServer } from "../support/app-server";
import { startFakeStripe, type FakeStripe } from "../support/fake-stripe";
import { BUYER, postJson, request, setFeeCents } from "../support/http";
import { newDomain } from "../support/refund-promise";

// Issue 13, finding 6: nobody can spend the Stripe account's API rate limit through our pages. The
// payment page and /api/confirm-payment ask Stripe at most 60 times a minute per client address (one
// budget for both); past it they answer 429 (confirm) or say so on the page, without asking Stripe.
let fake: FakeStripe;
let app: AppServer;
beforeAll(async () => {
  fake = await startFakeStripe();
  app = await startAppServer({
    env: {
      STRIPE_SECRET_KEY: "sk_test_fake",
      STRIPE_PUBLISHABLE_KEY: "pk_test_fake",
      STRIPE_API_BASE: fake.url,
      TRUST_PROXY: "true",
      SEED_DEMO: "false",
    },
  });
  setFeeCents(app.db(), 1999);
});
afterAll(async () => {
  await app?.stop();
  if (app) removeDataDir(app);
  await fake?.stop();
});

describe("provider checks per address", () => {
  it("the 61st check in a minute from one address is refused without asking Stripe; another address still gets answers", async () => {
    const domain = newDomain(app, { prefix: "checks" });
    const created = await postJson(
      app,
      "/api/create-payment-intent",
      { domain_name: domain.short, customer_info: BUYER },
      { "X-Forwarded-For": "10.61.0.1" },
    );
    expect(created.status).toBe(200);
    const intentId = created.json.payment_intent_id as string;
    const confirm = (address: string) =>
      postJson(
        app,
        "/api/confirm-payment",
        { payment_intent_id: intentId, domain_name: domain.short },
        { "X-Forwarded-For": address },
      );
    // At once: calls that come in together share one answer from Stripe (at most one question per 2 s).
    const first = await Promise.all(Array.from({ length: 60 }, () => confirm("10.61.0.2")));
    expect(first.filter((answer) => answer.status === 429)).toHaveLength(0);
    const asked = fake.requestsTo("GET", `/v1/payment_intents/${intentId}`).length;
    const refused = await confirm("10.61.0.2");
    expect(refused.status).toBe(429);
    expect(refused.json.error).toBe("Too many payment checks from your address. Please wait a minute.");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // The payment page shares the budget: it shows the message instead of asking Stripe.
    const page = await request(
      app,
      new URL(created.json.redirect as string, app.url).pathname +
        new URL(created.json.redirect as string, app.url).search,
      {
        headers: { "X-Forwarded-For": "10.61.0.2" },
      },
    );
    expect(page.body).toContain("Too many payment checks from your address. Please wait a minute.");
    expect(fake.requestsTo("GET", `/v1/payment_intents/${intentId}`).length).toBe(asked);
    expect((await confirm("10.61.0.3")).status).not.toBe(429);
  });
});
