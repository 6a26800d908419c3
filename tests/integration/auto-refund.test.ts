import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminCookie } from "../support/admin";
import { removeDataDir, startAppServer, startServerAt, type AppServer } from "../support/app-server";
import { setSilencePolicy } from "../support/refund-promise";
import { startFakeStripe, type FakeStripe } from "../support/fake-stripe";
import { BUYER, postJson, request, setFeeCents, waitFor } from "../support/http";
import { DAY_MS, inquiryRow, linkIn, newDomain, subjectOf } from "../support/refund-promise";
import { startSmtp, type TestSmtp } from "../support/smtp";
import { http } from "./admin-helpers";

// The refund scheduler where it takes processes, against the real stripe SDK and a Stripe-compatible
// server, with servers started past the deadline on the same database (TEST_CLOCK_OFFSET_MS) and the buyer's
// email on a real SMTP server: a refund cut off by a crash, two servers on one database, a restart. The scheduler's pass
// itself (the window, retries, a provider timeout) is tested in process (tests/in-process/auto-refund.test.ts).
const PAST_DEADLINE = 7 * DAY_MS + 60_000;
const STRIPE_TIMEOUT_MS = 1500;
let fake: FakeStripe;
let smtp: TestSmtp;
let app: AppServer;
const env = () => ({
  STRIPE_SECRET_KEY: "sk_test_fake",
  STRIPE_PUBLISHABLE_KEY: "pk_test_fake",
  STRIPE_API_BASE: fake.url,
  STRIPE_TIMEOUT_MS: String(STRIPE_TIMEOUT_MS),
  SMTP_URL: smtp.url,
  MAIL_RETRY_BASE_MS: "100",
  REFUND_SCHEDULER_INTERVAL_MS: "150",
  REFUND_RETRY_BASE_MS: "1500",
  ADMIN_EMAIL: "refund-admin@example.test",
  ADMIN_PASSWORD: "refund-password",
});

beforeAll(async () => {
  fake = await startFakeStripe();
  smtp = await startSmtp();
  app = await startAppServer({ env: env() });
  setFeeCents(app.db(), 1999);
  // Today's behaviour, the admin's "Refund automatically" (refund-or-credit.test.ts covers the other policy).
  setSilencePolicy(app.db(), "refund");
});
afterAll(async () => {
  await app?.stop();
  if (app) removeDataDir(app);
  await smtp?.stop();
  await fake?.stop();
});

/** A buyer pays through the JavaScript path (PaymentIntent, confirmed as Stripe.js would). */
async function payWithStripe(server: AppServer) {
  const domain = newDomain(server, { prefix: "autorefund" });
  const buyerEmail = `buyer-${domain.id}@buyer.example`;
  const created = await postJson(server, "/api/create-payment-intent", {
    domain_name: domain.short,
    customer_info: { ...BUYER, email: buyerEmail },
  });
  expect(created.status).toBe(200);
  const intentId = created.json.payment_intent_id as string;
  fake.confirm(intentId, "pm_card_visa");
  const confirmed = await postJson(server, "/api/confirm-payment", {
    payment_intent_id: intentId,
    domain_name: domain.short,
    customer_info: BUYER,
  });
  expect(confirmed.json.ok).toBe(true);
  const publicId = (
    server.db().prepare("SELECT public_id FROM inquiries WHERE payment_intent_id = ?").get(intentId) as {
      public_id: string;
    }
  ).public_id;
  return { domain, intentId, buyerEmail, publicId };
}

const refundsFor = (intentId: string) =>
  [...fake.refunds.values()].filter((refund) => refund.payment_intent === intentId);
const refundMails = (buyerEmail: string) =>
  smtp.messages.filter((m) => m.to.includes(buyerEmail) && subjectOf(m).includes("has been refunded"));

/** The buyer's page, from the receipt's link. */
async function buyerPageLink(buyerEmail: string): Promise<string> {
  const receipt = await waitFor(
    () => smtp.messages.find((m) => m.to.includes(buyerEmail) && subjectOf(m).startsWith("Receipt")),
    10_000,
    "receipt",
  );
  return linkIn(receipt, "/inquiry/");
}
/** "Take a credit instead" posted from the buyer's page without JavaScript. */
const takeCredit = (link: string) =>
  request(app, link, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "null", "Sec-Fetch-Site": "same-origin" },
    body: "intent=choose-credit",
  });
const creditsFrom = (publicId: string) =>
  Number(
    (
      app
        .db()
        .prepare(
          "SELECT count(*) AS n FROM credits c JOIN inquiries i ON i.id = c.source_inquiry_id WHERE i.public_id = ?",
        )
        .get(publicId) as { n: number }
    ).n,
  );
const choiceMails = (buyerEmail: string) =>
  smtp.messages.filter((m) => m.to.includes(buyerEmail) && subjectOf(m).startsWith("Refund or credit"));
/** The fee went back once, in money: refunded, one refund at Stripe, no credit and no offer of one. */
async function expectRefundedOnceNotCredited(inquiry: { publicId: string; intentId: string; buyerEmail: string }) {
  await waitFor(() => inquiryRow(app, inquiry.publicId).status === "refunded", 20_000, "the retried refund");
  expect(refundsFor(inquiry.intentId)).toHaveLength(1);
  expect(creditsFrom(inquiry.publicId)).toBe(0);
  expect(choiceMails(inquiry.buyerEmail)).toHaveLength(0);
}

describe("automatic refunds", () => {
  it("the admin's Refund cut off by a crash at the provider is retried, never offered or taken as a credit", async () => {
    setSilencePolicy(app.db(), "choose");
    const inquiry = await payWithStripe(app);
    const link = await buyerPageLink(inquiry.buyerEmail);
    const cookie = await adminCookie(app.url, { email: "refund-admin@example.test", password: "refund-password" });
    const id = String(inquiryRow(app, inquiry.publicId).id);
    // Stripe makes the refund, but the server dies before its answer arrives.
    fake.delayNext({ method: "POST", path: "/v1/refunds", ms: 60_000, times: 3 });
    try {
      const clicked = http(app, "/admin/inquiries", { cookie, form: { intent: "refund", id, confirmed: "1" } });
      clicked.catch(() => {});
      await waitFor(() => refundsFor(inquiry.intentId).length === 1, 10_000, "the refund at Stripe");
      await app.stop("SIGKILL");
      fake.clearDelays();
      // Started again past the deadline, and the admin's lease long run out, under "Let the buyer choose".
      app = await startServerAt(app, PAST_DEADLINE);
      // The scheduler's first pass either retries the refund or (were the attempt not on the row) offers the choice.
      await waitFor(
        () => {
          const row = inquiryRow(app, inquiry.publicId);
          return row.status === "refunded" || row.credit_offered_at !== null;
        },
        20_000,
        "the scheduler's pass",
      );
      const taken = await takeCredit(link);
      expect(taken.status).toBe(409);
      await expectRefundedOnceNotCredited(inquiry);
      const keys = fake
        .requestsTo("POST", "/v1/refunds")
        .filter((r) => r.body.payment_intent === inquiry.intentId)
        .map((r) => r.headers["idempotency-key"]);
      expect(new Set(keys)).toEqual(new Set([`refund-${inquiry.publicId}`]));
    } finally {
      fake.clearDelays();
      setSilencePolicy(app.db(), "refund");
      // Back to the real time for the next tests.
      await app.stop();
      app = await startServerAt(app, 0);
    }
  });

  it("two servers on one database refund each inquiry once", async () => {
    const inquiries = [await payWithStripe(app), await payWithStripe(app), await payWithStripe(app)];
    // Two servers on the same database past the deadline; the first stays at the real time.
    const later = [await startServerAt(app, PAST_DEADLINE), await startServerAt(app, PAST_DEADLINE)];
    try {
      await waitFor(
        () => inquiries.every((i) => inquiryRow(app, i.publicId).status === "refunded"),
        15_000,
        "all refunded",
      );
      await Promise.all(
        inquiries.map((i) => waitFor(() => refundMails(i.buyerEmail).length > 0, 10_000, "refund email")),
      );
      // Stopped, each has finished its last pass: no refund can be under way any more.
      for (const server of later) await server.stop();
      for (const i of inquiries) {
        expect(inquiryRow(app, i.publicId).refund_attempts).toBe(1);
        expect(refundsFor(i.intentId)).toHaveLength(1);
        expect(fake.requestsTo("POST", "/v1/refunds").filter((r) => r.body.payment_intent === i.intentId)).toHaveLength(
          1,
        );
        // Queued once. (Delivery is the outbox's job; with two processes draining one outbox it may
        // send a message twice, which is outside this scheduler.)
        const queued = app
          .db()
          .prepare(
            "SELECT count(*) AS n FROM outbox o JOIN inquiries i ON i.id = o.inquiry_id WHERE i.public_id = ? AND o.kind = 'refund'",
          )
          .get(i.publicId) as { n: number };
        expect(queued.n).toBe(1);
      }
    } finally {
      for (const server of later) await server.stop();
    }
  });

  it("survives a restart: an inquiry that fell due while the server was down is refunded when it starts", async () => {
    const inquiry = await payWithStripe(app);
    await app.stop();
    // Started again past the deadline (the file's last test: afterAll stops it).
    app = await startServerAt(app, PAST_DEADLINE);
    await waitFor(() => inquiryRow(app, inquiry.publicId).status === "refunded", 10_000, "refund after restart");
    expect(refundsFor(inquiry.intentId)).toHaveLength(1);
    await waitFor(() => refundMails(inquiry.buyerEmail).length === 1, 10_000, "refund email");
  });
});
