import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminCookie } from "../support/admin";
import { removeDataDir, startAppServer, type AppServer } from "../support/app-server";
import { startFakeStripe, type FakeStripe } from "../support/fake-stripe";
import { BUYER, postForm, postJson, request, setFeeCents, waitFor } from "../support/http";
import { DAY_MS, inquiryRow, mailText, newDomain, subjectOf, testClock } from "../support/refund-promise";
import { startSmtp, type TestSmtp } from "../support/smtp";
import { http, visibleText } from "./admin-helpers";

// The money path (issue 13) with the real stripe SDK against the Stripe-compatible test server, no
// webhook configured (the reconciler alone must finish every payment), real SMTP and a movable clock.
const RECONCILE_AFTER_MS = 60_000;
const ADMIN = { email: "money-admin@example.test", password: "money-password" };
let fake: FakeStripe;
let smtp: TestSmtp;
let app: AppServer;
let cookie: string;
const clock = testClock();
const stripeDirect = () =>
  new Stripe("sk_test_fake", { host: "127.0.0.1", port: Number(new URL(fake.url).port), protocol: "http" });

beforeAll(async () => {
  fake = await startFakeStripe();
  smtp = await startSmtp(0, { refuseRecipients: /^nobody@/ });
  app = await startAppServer({
    env: {
      STRIPE_SECRET_KEY: "sk_test_fake",
      STRIPE_PUBLISHABLE_KEY: "pk_test_fake",
      STRIPE_API_BASE: fake.url,
      SMTP_URL: smtp.url,
      MAIL_RETRY_BASE_MS: "50",
      TEST_CLOCK_FILE: clock.file,
      RECONCILE_INTERVAL_MS: "100",
      PAYMENT_RECONCILE_AFTER_MS: String(RECONCILE_AFTER_MS),
      REFUND_RETRY_BASE_MS: "1500",
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      // Every call here comes from one address; the caps have their own server below.
      MAX_PAYMENTS_PER_ADDRESS_PER_HOUR: "1000",
    },
  });
  setFeeCents(app.db(), 1999);
  cookie = await adminCookie(app.url, ADMIN);
});
afterAll(async () => {
  await app?.stop();
  if (app) removeDataDir(app);
  await smtp?.stop();
  await fake?.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const row = (publicId: string) => inquiryRow(app, publicId) as ReturnType<typeof inquiryRow> & Record<string, any>;
const byIntent = (intentId: string) =>
  app.db().prepare("SELECT * FROM inquiries WHERE payment_intent_id = ?").get(intentId) as any;
const refundsOf = (intentId: string) =>
  [...fake.refunds.values()].filter((refund) => refund.payment_intent === intentId);
const mailsTo = (address: string, subject: string) =>
  smtp.messages.filter((m) => m.to.includes(address) && subjectOf(m).includes(subject));
const inbox = async () => visibleText((await http(app, "/admin/inquiries", { cookie })).body);
/** Lets the reconciler's first look at everything made so far happen. */
const pastFirstCheck = () => clock.advance(RECONCILE_AFTER_MS + 1_000);

async function startIntent(prefix: string, buyerEmail = `${prefix}-${Date.now()}@buyer.example`) {
  const domain = newDomain(app, { prefix });
  const created = await postJson(app, "/api/create-payment-intent", {
    domain_name: domain.short,
    customer_info: { ...BUYER, email: buyerEmail },
  });
  expect(created.status).toBe(200);
  const intentId = created.json.payment_intent_id as string;
  return {
    domain,
    intentId,
    buyerEmail,
    publicId: byIntent(intentId).public_id as string,
    redirect: created.json.redirect as string,
  };
}

async function paidInquiry(prefix: string) {
  const started = await startIntent(prefix);
  fake.confirm(started.intentId);
  const confirmed = await postJson(app, "/api/confirm-payment", {
    payment_intent_id: started.intentId,
    domain_name: started.domain.short,
  });
  expect(confirmed.json.ok).toBe(true);
  return started;
}

const strayOf = (paymentId: string) =>
  app.db().prepare("SELECT reason, state FROM stray_payments WHERE payment_id = ?").get(paymentId) as
    { reason: string; state: string } | undefined;

const adminRefund = (id: number) =>
  http(app, "/admin/inquiries", { cookie, form: { intent: "refund", id: String(id), confirmed: "1" } });

describe("finding 1: the reconciler finishes payments without a webhook", () => {
  it("records a payment whose buyer closed the tab (JavaScript path), once, with one owner email", async () => {
    const started = await startIntent("closedtab");
    fake.confirm(started.intentId);
    // No confirm call, no webhook: before its first check nothing happens.
    await sleep(400);
    expect(row(started.publicId).status).toBe("pending");
    await pastFirstCheck();
    await waitFor(() => row(started.publicId).status === "paid", 10_000, "reconciled payment");
    expect(
      (app.db().prepare("SELECT inquiry_count AS n FROM domains WHERE id = ?").get(started.domain.id) as { n: number })
        .n,
    ).toBe(1);
    await waitFor(
      () => smtp.messages.some((m) => mailText(m).includes(started.publicId) && subjectOf(m).startsWith("New inquiry")),
      10_000,
      "owner email",
    );
    await sleep(300);
    expect(
      smtp.messages.filter((m) => mailText(m).includes(started.publicId) && subjectOf(m).startsWith("New inquiry")),
    ).toHaveLength(1);
  });

  it("records a checkout paid on Stripe whose buyer never came back, and refunds a replaced checkout paid later", async () => {
    const domain = newDomain(app, { prefix: "closedcheckout" });
    const started = await postForm(app, `/payment/${domain.short}`, { intent: "inquiry", ...BUYER });
    const firstSession = /\/pay\/(cs_test_\w+)/.exec(started.headers.get("location")!)![1]!;
    const publicId = (
      app.db().prepare("SELECT public_id FROM inquiries WHERE checkout_session_id = ?").get(firstSession) as {
        public_id: string;
      }
    ).public_id;
    // The first checkout page expires unpaid in the buyer's view; a new one replaces it...
    fake.sessions.get(firstSession)!.status = "expired";
    const again = await postForm(app, `/payment/${domain.short}`, { intent: "checkout", inquiry: publicId });
    const secondSession = /\/pay\/(cs_test_\w+)/.exec(again.headers.get("location")!)![1]!;
    expect(secondSession).not.toBe(firstSession);
    // ...the buyer pays the second and closes the tab; then the first one's payment completes too.
    const second = fake.completeCheckout(secondSession);
    await pastFirstCheck();
    await waitFor(() => row(publicId).status === "paid", 10_000, "checkout reconciled");
    expect(row(publicId).payment_intent_id).toBe(second.paymentIntent.id);
    const first = fake.completeCheckout(firstSession);
    await clock.advance(2 * RECONCILE_AFTER_MS + 1_000);
    await waitFor(() => refundsOf(first.paymentIntent.id).length === 1, 10_000, "late duplicate refunded");
    expect(refundsOf(second.paymentIntent.id)).toHaveLength(0);
    // Stripe answers the refund before the server records it: wait for the record, not only the refund.
    await waitFor(
      () => strayOf(first.paymentIntent.id)?.state === "refunded",
      10_000,
      "late duplicate recorded as refunded",
    );
    expect(strayOf(first.paymentIntent.id)).toEqual({ reason: "duplicate", state: "refunded" });
  });

  it("refunds a payment that does not match its inquiry instead of keeping it", async () => {
    const started = await startIntent("mismatch");
    fake.paymentIntents.get(started.intentId)!.amount = 100;
    fake.confirm(started.intentId);
    await pastFirstCheck();
    await waitFor(() => refundsOf(started.intentId).length === 1, 10_000, "mismatch refunded");
    expect(row(started.publicId).status).toBe("pending");
    await waitFor(() => strayOf(started.intentId)?.state === "refunded", 10_000, "mismatch recorded as refunded");
    expect(strayOf(started.intentId)).toEqual({ reason: "mismatch", state: "refunded" });
  });

  it("records a payment for a domain deleted while its buyer paid, and tells the buyer", async () => {
    const started = await startIntent("deletedwhilepaying");
    app.db().prepare("UPDATE domains SET deleted_at = ? WHERE id = ?").run(new Date().toISOString(), started.domain.id);
    fake.confirm(started.intentId);
    const confirmed = await postJson(app, "/api/confirm-payment", {
      payment_intent_id: started.intentId,
      domain_name: started.domain.short,
    });
    expect(confirmed.status).toBe(200);
    expect(row(started.publicId).status).toBe("paid");
    const page = await request(app, started.redirect);
    expect(page.status).toBe(200);
    const text = visibleText(page.body);
    expect(text).toContain("Payment Successful!");
    expect(text).toContain("was taken off the list while you paid; your inquiry was still delivered to its owner");
  });
});

describe("finding 2: a duplicate payment is recorded and its refund retried", () => {
  it("shows a failed duplicate refund in the inbox and retries it with a new key until it is refunded", async () => {
    const started = await paidInquiry("duplicate");
    // The same inquiry paid a second time on a checkout page (a second tab without JavaScript).
    const checkout = await postForm(app, `/payment/${started.domain.short}`, {
      intent: "checkout",
      inquiry: started.publicId,
    });
    expect(checkout.status).toBe(303);
    // Already paid: no second checkout is opened for it.
    expect(checkout.headers.get("location")).not.toMatch(/\/pay\//);
    // So a second intent, as a second browser tab would have made it before the first was paid.
    const twin = await stripeDirect().paymentIntents.create({
      amount: 1999,
      currency: "usd",
      metadata: { inquiry_id: started.publicId, domain: started.domain.name },
    });
    fake.confirm(twin.id);
    fake.failNext({
      method: "POST",
      path: "/v1/refunds",
      status: 400,
      stored: true,
      error: { type: "invalid_request_error", message: "Refunds are paused (test)" },
    });
    const confirmed = await postJson(app, "/api/confirm-payment", {
      payment_intent_id: twin.id,
      domain_name: started.domain.short,
    });
    expect(confirmed.json.ok).toBe(true);
    expect(
      app.db().prepare("SELECT reason, state, last_error FROM stray_payments WHERE payment_id = ?").get(twin.id),
    ).toMatchObject({
      reason: "duplicate",
      state: "due",
      last_error: expect.stringContaining("Refunds are paused"),
    });
    expect(await inbox()).toContain("Second payment for one inquiry");
    await waitFor(() => refundsOf(twin.id).length === 1, 10_000, "duplicate refund retried");
    await waitFor(() => strayOf(twin.id)?.state === "refunded", 10_000, "retried refund recorded");
    const keys = fake
      .requestsTo("POST", "/v1/refunds")
      .filter((r) => r.body.payment_intent === twin.id)
      .map((r) => r.headers["idempotency-key"]);
    expect(keys).toEqual([`duplicate-refund:${twin.id}`, `duplicate-refund:${twin.id}:1`]);
    expect(await inbox()).not.toContain("Second payment for one inquiry");
  });
});

describe("finding 3: refunds that finish", () => {
  it("uses a new idempotency key after a definite failure (Stripe replays the first answer for a key)", async () => {
    const paid = await paidInquiry("refundkey");
    const id = byIntent(paid.intentId).id as number;
    fake.failNext({
      method: "POST",
      path: "/v1/refunds",
      status: 402,
      stored: true,
      error: { type: "invalid_request_error", message: "Insufficient balance (test)" },
    });
    expect((await adminRefund(id)).status).toBe(502);
    const second = await adminRefund(id);
    expect(second.location).toContain("notice=inquiry-refunded");
    expect(row(paid.publicId).status).toBe("refunded");
    const keys = fake
      .requestsTo("POST", "/v1/refunds")
      .filter((r) => r.body.payment_intent === paid.intentId)
      .map((r) => r.headers["idempotency-key"]);
    expect(keys).toEqual([`refund-${paid.publicId}`, `refund-${paid.publicId}:1`]);
  });

  it("treats charge_already_refunded (refunded in the Stripe dashboard) as refunded, and emails the buyer on a manual refund", async () => {
    const paid = await paidInquiry("dashboard");
    await stripeDirect().refunds.create({ payment_intent: paid.intentId });
    const response = await adminRefund(byIntent(paid.intentId).id);
    expect(response.location).toContain("notice=inquiry-refunded");
    expect(row(paid.publicId).status).toBe("refunded");
    const mail = await waitFor(() => mailsTo(paid.buyerEmail, "has been refunded")[0], 10_000, "refund email");
    expect(mailText(mail)).toContain(`Your inquiry fee of $19.99 for ${paid.domain.name} has been refunded in full`);
  });

  it("shows a pending refund as pending until Stripe says succeeded, and retries one that failed", async () => {
    const paid = await paidInquiry("pendingrefund");
    const id = byIntent(paid.intentId).id as number;
    fake.nextRefundStatus("pending");
    expect((await adminRefund(id)).location).toContain("notice=refund-pending");
    expect(row(paid.publicId)).toMatchObject({ status: "paid", refund_state: "pending" });
    expect(await inbox()).toContain("Refund pending");
    await sleep(400);
    expect(mailsTo(paid.buyerEmail, "has been refunded")).toHaveLength(0);

    // Stripe fails it (the card was closed): not refunded; the next attempt has a new key and succeeds.
    fake.settleRefund(row(paid.publicId).refund_id, "failed");
    await waitFor(() => row(paid.publicId).refund_state === null, 10_000, "failed refund seen");
    expect(row(paid.publicId)).toMatchObject({ status: "paid", refund_key_seq: 1 });
    fake.nextRefundStatus("requires_action");
    await adminRefund(id);
    expect(row(paid.publicId).refund_state).toBe("pending");
    fake.settleRefund(row(paid.publicId).refund_id, "succeeded");
    await waitFor(() => row(paid.publicId).status === "refunded", 10_000, "pending refund finished");
    await waitFor(() => mailsTo(paid.buyerEmail, "has been refunded").length === 1, 10_000, "refund email");
    expect(await inbox()).not.toContain("Refund pending");
  });

  it("stops retrying a refund that cannot succeed, says so, and lets the admin mark it settled", async () => {
    const paid = await paidInquiry("disputed");
    const id = byIntent(paid.intentId).id as number;
    fake.failNext({
      method: "POST",
      path: "/v1/refunds",
      status: 400,
      stored: true,
      error: { type: "invalid_request_error", code: "charge_disputed", message: "Charge has been disputed (test)" },
    });
    expect((await adminRefund(id)).status).toBe(502);
    expect(row(paid.publicId).refund_state).toBe("gave_up");
    const text = await inbox();
    expect(text).toContain("Refund stopped");
    expect(text).toContain("Charge has been disputed (test)");
    const settled = await http(app, "/admin/inquiries", { cookie, form: { intent: "settle-refund", id: String(id) } });
    expect(settled.location).toContain("notice=problem-settled");
    expect(row(paid.publicId).refund_state).toBe("settled");
    expect(await inbox()).not.toContain("Refund stopped");
  });
});

describe("finding 5: a payment still processing", () => {
  it("shows 'Payment processing', offers no second payment, and is fulfilled when it succeeds", async () => {
    const started = await startIntent("processing");
    fake.startProcessing(started.intentId);
    const confirmed = await postJson(app, "/api/confirm-payment", {
      payment_intent_id: started.intentId,
      domain_name: started.domain.short,
    });
    expect(confirmed.status).toBe(202);
    expect(confirmed.json).toMatchObject({ ok: true, processing: true });
    const page = visibleText((await request(app, started.redirect)).body);
    expect(page).toContain("Payment processing: we will email you");
    expect(page).not.toContain("Pay $19.99");
    fake.confirm(started.intentId);
    await pastFirstCheck();
    await waitFor(() => row(started.publicId).status === "paid", 10_000, "processing payment fulfilled");
    await waitFor(() => mailsTo(started.buyerEmail, "Receipt").length === 1, 10_000, "buyer receipt");
  });
});

describe("finding 6: card testing", () => {
  it("cancels the payment and closes the inquiry after 5 declines; the buyer is told", async () => {
    const started = await startIntent("cardtesting");
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      fake.confirm(started.intentId, "pm_card_chargeDeclined");
      const declined = await postJson(app, "/api/confirm-payment", {
        payment_intent_id: started.intentId,
        domain_name: started.domain.short,
      });
      expect(declined.status).toBe(402);
      expect(row(started.publicId).declines).toBe(attempt);
    }
    expect(fake.paymentIntents.get(started.intentId)!.status).toBe("canceled");
    expect(row(started.publicId).status).toBe("failed");
    const text = visibleText((await request(app, started.redirect)).body);
    expect(text).toContain("This payment was declined too many times and has been canceled");
    expect(text).not.toContain("Complete Payment");
  });

  it("the page and the confirm call each ask Stripe about one payment at most once per 2 seconds", async () => {
    const started = await startIntent("askonce");
    const gets = () => fake.requestsTo("GET", `/v1/payment_intents/${started.intentId}`).length;
    const before = gets();
    const startedAt = Date.now();
    const calls = [
      ...Array.from({ length: 10 }, () =>
        postJson(app, "/api/confirm-payment", {
          payment_intent_id: started.intentId,
          domain_name: started.domain.short,
        }),
      ),
      ...Array.from({ length: 10 }, () => request(app, started.redirect)),
    ];
    const answers = await Promise.all(calls);
    expect(answers.every((answer) => answer.status < 500)).toBe(true);
    // 10 + 10 calls: per path one question, plus at most one per 2 seconds the calls took (calls that
    // came in while one was asked share its answer; later ones wait for the interval, so none is stale).
    const asked = gets() - before;
    expect(asked).toBeGreaterThanOrEqual(2);
    expect(asked).toBeLessThanOrEqual(2 * (1 + Math.floor((Date.now() - startedAt) / 2000)));
    expect(asked).toBeLessThan(7);
  });

  it("caps Stripe payments created per hour per address and site-wide", async () => {
    const capped = await startAppServer({
      env: {
        STRIPE_SECRET_KEY: "sk_test_fake",
        STRIPE_PUBLISHABLE_KEY: "pk_test_fake",
        STRIPE_API_BASE: fake.url,
        TRUST_PROXY: "true",
        MAX_PAYMENTS_PER_HOUR: "3",
        MAX_PAYMENTS_PER_ADDRESS_PER_HOUR: "2",
      },
    });
    try {
      setFeeCents(capped.db(), 1999);
      const domain = newDomain(capped, { prefix: "caps" });
      const start = (address: string) =>
        postJson(
          capped,
          "/api/create-payment-intent",
          { domain_name: domain.short, customer_info: BUYER },
          { "X-Forwarded-For": address },
        );
      expect((await start("203.0.113.1")).status).toBe(200);
      expect((await start("203.0.113.1")).status).toBe(200);
      const perAddress = await start("203.0.113.1");
      expect(perAddress.status).toBe(429);
      expect(perAddress.json.error).toBe("Too many payments are being started right now. Please try again later.");
      expect((await start("203.0.113.2")).status).toBe(200);
      expect((await start("203.0.113.3")).status).toBe(429);
      expect(
        fake.requestsTo("POST", "/v1/payment_intents").filter((r) => r.body.metadata?.domain === domain.name),
      ).toHaveLength(3);
    } finally {
      await capped.stop();
      removeDataDir(capped);
    }
  });
});

describe("finding 7: mail refused permanently", () => {
  it("stops after a few attempts and shows in the admin as undeliverable with the server's answer", async () => {
    const domain = newDomain(app, { prefix: "deadletter", ownerEmail: "nobody@owner.example" });
    const started = await postJson(app, "/api/create-payment-intent", {
      domain_name: domain.short,
      customer_info: BUYER,
    });
    fake.confirm(started.json.payment_intent_id);
    await postJson(app, "/api/confirm-payment", {
      payment_intent_id: started.json.payment_intent_id,
      domain_name: domain.short,
    });
    const inquiryId = byIntent(started.json.payment_intent_id).id;
    const dead = await waitFor(
      () =>
        app
          .db()
          .prepare(
            "SELECT attempts, dead_at, last_error FROM outbox WHERE inquiry_id = ? AND kind = 'owner_inquiry' AND dead_at IS NOT NULL",
          )
          .get(inquiryId) as any,
      10_000,
      "dead letter",
    );
    expect(dead.attempts).toBe(3);
    expect(dead.last_error).toContain("550");
    await sleep(500);
    expect(
      (
        app
          .db()
          .prepare("SELECT attempts FROM outbox WHERE inquiry_id = ? AND kind = 'owner_inquiry'")
          .get(inquiryId) as any
      ).attempts,
    ).toBe(3);
    const text = await inbox();
    expect(text).toContain("Undeliverable email to nobody@owner.example");
    expect(text).toContain("No such user here");
  });
});

describe("finding 4: stale pending inquiries", () => {
  it("expire after 24 hours (their payment canceled), start again at today's fee with the form filled in, and are deleted after 30 days", async () => {
    const started = await startIntent("stale");
    await clock.advance(DAY_MS + 60_000);
    await waitFor(() => row(started.publicId).expired_at, 10_000, "expiry");
    expect(row(started.publicId).status).toBe("failed");
    expect(fake.paymentIntents.get(started.intentId)!.status).toBe("canceled");
    setFeeCents(app.db(), 2999);
    try {
      const page = await request(app, started.redirect);
      const text = visibleText(page.body);
      expect(text).toContain("This inquiry was not paid within 24 hours and has expired");
      expect(text).toContain("One-time inquiry fee: $29.99");
      expect(page.body).toContain(BUYER.message);
      expect(page.body).toContain(`value="${started.buyerEmail}"`);
      // A late payment of a canceled inquiry cannot count: the confirm call says so.
      const late = await postJson(app, "/api/confirm-payment", {
        payment_intent_id: started.intentId,
        domain_name: started.domain.short,
      });
      expect(late.status).toBe(402);
    } finally {
      setFeeCents(app.db(), 1999);
    }
    await clock.advance(30 * DAY_MS + 60 * 60_000);
    await waitFor(() => !row(started.publicId), 10_000, "purge");
  });
});
