import { expect, it } from "vitest";
import { removeDataDir, startAppServer, startServerAt, type AppServer } from "../support/app-server";
import { startFakeStripe } from "../support/fake-stripe";
import { BUYER, postJson, setFeeCents, waitFor } from "../support/http";
import { DAY_MS, inquiryRow, newDomain } from "../support/refund-promise";

// Two server processes on one database (old and new during a deploy) both run the payment reconciler
// every 100 ms against a slow Stripe, so their passes overlap. Payments are started on two servers at the
// real time; two more, started on the same database a minute later (TEST_CLOCK_OFFSET_MS), then a day
// later, find them due. Each payment ref, payment to refund and
// stale inquiry is claimed (a conditional UPDATE) before Stripe is asked, so Stripe sees one check per
// due payment, one refund per payment that cannot count, and one cancel per inquiry that expires.
const RECONCILE_AFTER_MS = 60_000;
const PER_KIND = 6;

it("two servers on one database check, refund and expire each payment once", { timeout: 180_000 }, async () => {
  const fake = await startFakeStripe();
  const env = {
    STRIPE_SECRET_KEY: "sk_test_fake",
    STRIPE_PUBLISHABLE_KEY: "pk_test_fake",
    STRIPE_API_BASE: fake.url,
    RECONCILE_INTERVAL_MS: "100",
    PAYMENT_RECONCILE_AFTER_MS: String(RECONCILE_AFTER_MS),
    MAX_PAYMENTS_PER_ADDRESS_PER_HOUR: "1000",
  };
  const first = await startAppServer({ env });
  let second: AppServer | undefined;
  let later: AppServer[] = [];
  /** Two servers on the database, `offsetMs` ahead. */
  const startLater = async (offsetMs: number) => {
    later = [await startServerAt(first, offsetMs), await startServerAt(first, offsetMs)];
  };
  /** Stops them: each has finished its last pass, so no check, refund or cancel can be under way. */
  const stopLater = async () => {
    for (const server of later) await server.stop();
    later = [];
  };
  try {
    second = await startAppServer({ env, dataDir: first.dataDir });
    setFeeCents(first.db(), 1999);
    const servers = [first, second];
    // Buyers start payments on both servers and close the tab: no confirm call, no webhook.
    const start = async (i: number) => {
      const server = servers[i % 2]!;
      const domain = newDomain(server, { prefix: "recon2" });
      const created = await postJson(server, "/api/create-payment-intent", {
        domain_name: domain.short,
        customer_info: { ...BUYER, email: `recon2-${i}@buyer.example` },
      });
      expect(created.status).toBe(200);
      const intentId = created.json.payment_intent_id as string;
      const { public_id: publicId } = first
        .db()
        .prepare("SELECT public_id FROM inquiries WHERE payment_intent_id = ?")
        .get(intentId) as { public_id: string };
      return { intentId, publicId };
    };
    const started = [];
    for (let i = 0; i < 3 * PER_KIND; i++) started.push(await start(i));
    const paid = started.slice(0, PER_KIND);
    const mismatched = started.slice(PER_KIND, 2 * PER_KIND);
    const unpaid = started.slice(2 * PER_KIND);
    for (const { intentId } of paid) fake.confirm(intentId);
    for (const { intentId } of mismatched) {
      fake.paymentIntents.get(intentId)!.amount = 100;
      fake.confirm(intentId);
    }
    // The servers the buyers used have done their part; `first` stays, at the real time, for its db().
    await second.stop();
    const checksOf = (intentId: string) => fake.requestsTo("GET", `/v1/payment_intents/${intentId}`).length;
    expect(started.map((s) => checksOf(s.intentId))).toEqual(started.map(() => 0));

    // A slow Stripe: every answer takes 150 ms, so both processes' passes are under way together.
    for (const path of ["/v1/payment_intents", "/v1/refunds"]) {
      for (const method of ["GET", "POST"]) fake.delayNext({ method, path, ms: 150, times: 1000 });
    }
    await startLater(RECONCILE_AFTER_MS + 1_000);
    await waitFor(
      () => paid.every((p) => inquiryRow(first, p.publicId).status === "paid"),
      20_000,
      "closed-tab payments recorded",
    );
    const strayState = (paymentId: string) =>
      (
        first.db().prepare("SELECT state FROM stray_payments WHERE payment_id = ?").get(paymentId) as
          { state: string } | undefined
      )?.state;
    await waitFor(
      () => mismatched.every((m) => strayState(m.intentId) === "refunded"),
      20_000,
      "mismatched payments refunded",
    );
    await waitFor(() => unpaid.every((u) => checksOf(u.intentId) >= 1), 20_000, "unpaid payments checked");
    await stopLater();

    // Each due payment was checked once (by either process), each mismatch refunded once.
    expect(started.map((s) => checksOf(s.intentId))).toEqual(started.map(() => 1));
    const refundRequests = (intentId: string) =>
      fake.requestsTo("POST", "/v1/refunds").filter((r) => r.body.payment_intent === intentId).length;
    expect(mismatched.map((m) => refundRequests(m.intentId))).toEqual(mismatched.map(() => 1));
    const paidCount = first
      .db()
      .prepare(
        `SELECT count(*) AS n FROM inquiries WHERE status = 'paid' AND public_id IN (${paid.map(() => "?").join(",")})`,
      )
      .get(...paid.map((p) => p.publicId)) as { n: number };
    expect(paidCount.n).toBe(PER_KIND);

    // A day later the unpaid inquiries expire: each payment is canceled once, by one of the processes.
    await startLater(RECONCILE_AFTER_MS + 1_000 + DAY_MS);
    await waitFor(
      () => unpaid.every((u) => inquiryRow(first, u.publicId).status === "failed"),
      20_000,
      "unpaid inquiries expired",
    );
    await stopLater();
    const cancels = (intentId: string) => fake.requestsTo("POST", `/v1/payment_intents/${intentId}/cancel`).length;
    expect(unpaid.map((u) => cancels(u.intentId))).toEqual(unpaid.map(() => 1));
    // The claims were released when the work ended.
    const leaseOf = (publicId: string) =>
      (
        first.db().prepare("SELECT refund_lease_until AS lease FROM inquiries WHERE public_id = ?").get(publicId) as {
          lease: string | null;
        }
      ).lease;
    expect(unpaid.map((u) => leaseOf(u.publicId))).toEqual(unpaid.map(() => null));
    console.log(
      `reconciler (two servers, one database): ${started.length} payments checked once each, ${mismatched.length} refunded once each, ${unpaid.length} canceled once each`,
    );
  } finally {
    await stopLater();
    await second?.stop();
    await first.stop();
    removeDataDir(first);
    await fake.stop();
  }
});
