import { afterAll, describe, expect, it, vi } from "vitest";

// Issue 13, finding 6 (card testing): the caps on Stripe payments created per hour, per client address and
// site-wide, with the real stripe SDK against the Stripe-compatible test server (started before the app).
const { fake } = await vi.hoisted(async () => {
  const { startStripeForApp } = await import("../support/in-process/stripe");
  return { fake: await startStripeForApp({ MAX_PAYMENTS_PER_HOUR: "3", MAX_PAYMENTS_PER_ADDRESS_PER_HOUR: "2" }) };
});

import { setInquiryFee } from "../../app/server/catalog/settings.server";
import { BUYER, createDomain } from "../support/factories";
import { render } from "../support/in-process/document";

afterAll(async () => {
  await fake.stop();
});

describe("finding 6: card testing", () => {
  it("caps Stripe payments created per hour per address and site-wide", async () => {
    await setInquiryFee(1999);
    const domain = await createDomain({ prefix: "caps" });
    const start = async (address: string) => {
      const reply = await render("/api/create-payment-intent", {
        json: { domain_name: domain.short, customer_info: BUYER },
        clientAddress: address,
      });
      return { status: reply.status, json: JSON.parse(reply.body) as Record<string, unknown> };
    };
    expect((await start("203.0.113.1")).status).toBe(200);
    expect((await start("203.0.113.1")).status).toBe(200);
    const perAddress = await start("203.0.113.1");
    expect(perAddress.status).toBe(429);
    expect(perAddress.json.error).toBe("Too many payments are being started right now. Please try again later.");
    expect((await start("203.0.113.2")).status).toBe(200);
    expect((await start("203.0.113.3")).status).toBe(429);
    expect(
      fake.requestsTo("POST", "/v1/payment_intents").filter((r) => r.body.metadata?.domain === domain.domain_name),
    ).toHaveLength(3);
  });
});
