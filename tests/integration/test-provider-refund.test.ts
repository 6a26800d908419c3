import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The refund contract the admin inbox relies on: getPaymentProvider().refund(paymentId, idempotencyKey),
// run in-process against a real SQLite file (the test provider needs no server).
const dataDir = mkdtempSync(path.join(tmpdir(), "refund-test-"));
let modules: {
  payments: typeof import("../../app/server/payments/index.server");
  db: typeof import("../../app/server/db/database.server");
};

beforeAll(async () => {
  process.env.DATABASE_URL = `file:${path.join(dataDir, "app.db")}`;
  delete process.env.STRIPE_SECRET_KEY;
  const db = await import("../../app/server/db/database.server");
  await db.migrateToLatest();
  modules = { db, payments: await import("../../app/server/payments/index.server") };
});
afterAll(() => {
  modules.db.closeDatabase();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("test provider refunds", () => {
  it("refunds a succeeded payment once, idempotently, and reports it refunded", async () => {
    const { getPaymentProvider, getTestProvider } = modules.payments;
    const provider = getPaymentProvider();
    expect(provider.name).toBe("test");
    const request = {
      inquiryPublicId: "inq_refund_test_1",
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
