import { describe, expect, it } from "vitest";
import { getPaymentProvider, getTestProvider } from "../../app/server/payments/index.server";

// The refund contract the admin inbox relies on: getPaymentProvider().refund(paymentId, idempotencyKey),
// on the test provider (it needs no server).
describe("test provider refunds", () => {
  it("refunds a succeeded payment once, idempotently, and reports it refunded", async () => {
    const provider = getPaymentProvider();
    expect(provider.name).toBe("test");
    const request = {
      reference: "inq_refund_test_1",
      domainName: "example.com",
      amountCents: 1999,
      currency: "usd" as const,
      idempotencyKey: "k1",
    };
    const payment = await provider.createPayment(request);
    // Same idempotency key, same payment.
    expect((await provider.createPayment(request)).paymentId).toBe(payment.paymentId);
    await expect(provider.refund(payment.paymentId, "r1")).rejects.toThrow(/succeeded/);
    const confirmed = await getTestProvider().confirmWithCard(payment.clientSecret, {
      number: "4242424242424242",
      expiry: "12/40",
      cvc: "123",
    });
    expect(confirmed.ok).toBe(true);
    const first = await provider.refund(payment.paymentId, "r1");
    const second = await provider.refund(payment.paymentId, "r1");
    expect(first).toEqual({ refundId: second.refundId, status: "succeeded" });
    expect((await provider.retrievePayment(payment.paymentId)).status).toBe("refunded");
  });
});
