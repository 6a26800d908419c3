import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// The money path (issue 13) with the real stripe SDK against the Stripe-compatible test server, no webhook
// configured (the reconciler alone must finish every payment) and real SMTP, both started before the app
// loads (their addresses are settings). The reconciler's pass runs when the test says, at the clock's time.
const { fake, smtp, RECONCILE_AFTER_MS } = await vi.hoisted(async () => {
  const { startStripeForApp } = await import("../support/in-process/stripe");
  const { startSmtp } = await import("../support/smtp");
  const smtp = await startSmtp(0, { refuseRecipients: /^nobody@/ });
  const RECONCILE_AFTER_MS = 60_000;
  const fake = await startStripeForApp({
    SMTP_URL: smtp.url,
    MAIL_RETRY_BASE_MS: "50",
    PAYMENT_RECONCILE_AFTER_MS: String(RECONCILE_AFTER_MS),
    REFUND_RETRY_BASE_MS: "1500",
    // Every call here comes from one address; the caps have their own file (payment-caps.test.ts).
    MAX_PAYMENTS_PER_ADDRESS_PER_HOUR: "1000",
  });
  return { fake, smtp, RECONCILE_AFTER_MS };
});

import { softDeleteDomain } from "../../app/server/admin/admin-domains.server";
import { setInquiryFee } from "../../app/server/catalog/settings.server";
import { db } from "../../app/server/db/database.server";
import { findInquiryByPaymentId, findInquiryByPublicId } from "../../app/server/inquiries/inquiries.server";
import { runReconcilePass } from "../../app/server/payments/reconciler.server";
import { BUYER, createAdmin, createDomain, type TestAdmin } from "../support/factories";
import { DAY_MS, useTestClock } from "../support/in-process/clock";
import { render } from "../support/in-process/document";
import { sendDueMail } from "../support/in-process/mail";
import { mailText, subjectOf } from "../support/mail-text";
import { visibleText } from "../support/visible-text";

const clock = useTestClock();
let admin: TestAdmin;
beforeAll(async () => {
  admin = await createAdmin();
  await setInquiryFee(1999);
});
afterAll(async () => {
  await smtp.stop();
  await fake.stop();
});

const stripeDirect = () =>
  new Stripe("sk_test_fake", { host: "127.0.0.1", port: Number(new URL(fake.url).port), protocol: "http" });
const row = async (publicId: string) => (await findInquiryByPublicId(publicId))!;
const byIntent = async (intentId: string) => (await findInquiryByPaymentId(intentId))!;
const refundsOf = (intentId: string) =>
  [...fake.refunds.values()].filter((refund) => refund.payment_intent === intentId);
const mailsTo = async (address: string, subject: string) => {
  await sendDueMail();
  return smtp.messages.filter((m) => m.to.includes(address) && subjectOf(m).includes(subject));
};
const inbox = async () => visibleText((await render("/admin/inquiries", { cookie: admin.cookie })).body);
const postJson = async (path: string, json: unknown) => {
  const reply = await render(path, { json });
  return { status: reply.status, json: JSON.parse(reply.body) as Record<string, any> };
};
/** The reconciler's pass once its first look at everything made so far is due. */
async function pastFirstCheck() {
  clock.advance(RECONCILE_AFTER_MS + 1_000);
  await runReconcilePass();
}
/** Reconciler passes, a check interval apart, until `done` (a few at most). */
async function reconcileUntil(done: () => Promise<boolean>, what: string) {
  for (let pass = 0; pass < 6 && !(await done()); pass++) await pastFirstCheck();
  expect(await done(), what).toBe(true);
}
const strayOf = (paymentId: string) =>
  db
    .selectFrom("stray_payments")
    .select(["reason", "state", "last_error"])
    .where("payment_id", "=", paymentId)
    .executeTakeFirst();

async function startIntent(prefix: string, buyerEmail = `${prefix}-${Date.now()}@buyer.example`) {
  const domain = await createDomain({ prefix });
  const created = await postJson("/api/create-payment-intent", {
    domain_name: domain.short,
    customer_info: { ...BUYER, email: buyerEmail },
  });
  expect(created.status).toBe(200);
  const intentId = created.json.payment_intent_id as string;
  return {
    domain,
    intentId,
    buyerEmail,
    publicId: (await byIntent(intentId)).public_id,
    redirect: created.json.redirect as string,
  };
}

async function paidInquiry(prefix: string) {
  const started = await startIntent(prefix);
  fake.confirm(started.intentId);
  const confirmed = await postJson("/api/confirm-payment", {
    payment_intent_id: started.intentId,
    domain_name: started.domain.short,
  });
  expect(confirmed.json.ok).toBe(true);
  return started;
}

const adminRefund = (id: number) =>
  render("/admin/inquiries", { cookie: admin.cookie, form: { intent: "refund", id: String(id), confirmed: "1" } });

describe("finding 1: the reconciler finishes payments without a webhook", () => {
  it("records a payment whose buyer closed the tab (JavaScript path), once, with one owner email", async () => {
    const started = await startIntent("closedtab");
    fake.confirm(started.intentId);
    // No confirm call, no webhook: before its first check nothing happens.
    await runReconcilePass();
    expect((await row(started.publicId)).status).toBe("pending");
    await pastFirstCheck();
    expect((await row(started.publicId)).status).toBe("paid");
    const counted = await db
      .selectFrom("domains")
      .select("inquiry_count")
      .where("id", "=", started.domain.id)
      .executeTakeFirstOrThrow();
    expect(Number(counted.inquiry_count)).toBe(1);
    await pastFirstCheck();
    await sendDueMail();
    expect(
      smtp.messages.filter((m) => mailText(m).includes(started.publicId) && subjectOf(m).startsWith("New inquiry")),
    ).toHaveLength(1);
  });

  it("records a checkout paid on Stripe whose buyer never came back, and refunds a replaced checkout paid later", async () => {
    const domain = await createDomain({ prefix: "closedcheckout" });
    const started = await render(`/payment/${domain.short}`, { form: { intent: "inquiry", ...BUYER } });
    const firstSession = /\/pay\/(cs_test_\w+)/.exec(started.location!)![1]!;
    const publicId = (await db
      .selectFrom("inquiries")
      .select("public_id")
      .where("checkout_session_id", "=", firstSession)
      .executeTakeFirstOrThrow())!.public_id;
    // The first checkout page expires unpaid in the buyer's view; a new one replaces it...
    fake.sessions.get(firstSession)!.status = "expired";
    const again = await render(`/payment/${domain.short}`, { form: { intent: "checkout", inquiry: publicId } });
    const secondSession = /\/pay\/(cs_test_\w+)/.exec(again.location!)![1]!;
    expect(secondSession).not.toBe(firstSession);
    // ...the buyer pays the second and closes the tab; then the first one's payment completes too.
    const second = fake.completeCheckout(secondSession);
    await reconcileUntil(async () => (await row(publicId)).status === "paid", "checkout reconciled");
    expect((await row(publicId)).payment_intent_id).toBe(second.paymentIntent.id);
    const first = fake.completeCheckout(firstSession);
    clock.advance(RECONCILE_AFTER_MS);
    await reconcileUntil(
      async () =>
        refundsOf(first.paymentIntent.id).length === 1 && (await strayOf(first.paymentIntent.id))?.state === "refunded",
      "late duplicate refunded and recorded as refunded",
    );
    expect(refundsOf(second.paymentIntent.id)).toHaveLength(0);
    expect(await strayOf(first.paymentIntent.id)).toMatchObject({ reason: "duplicate", state: "refunded" });
  });

  it("refunds a payment that does not match its inquiry instead of keeping it", async () => {
    const started = await startIntent("mismatch");
    fake.paymentIntents.get(started.intentId)!.amount = 100;
    fake.confirm(started.intentId);
    await reconcileUntil(
      async () => refundsOf(started.intentId).length === 1 && (await strayOf(started.intentId))?.state === "refunded",
      "mismatch refunded and recorded as refunded",
    );
    expect((await row(started.publicId)).status).toBe("pending");
    expect(await strayOf(started.intentId)).toMatchObject({ reason: "mismatch", state: "refunded" });
  });

  it("records a payment for a domain deleted while its buyer paid, and tells the buyer", async () => {
    const started = await startIntent("deletedwhilepaying");
    await softDeleteDomain(started.domain.id);
    fake.confirm(started.intentId);
    const confirmed = await postJson("/api/confirm-payment", {
      payment_intent_id: started.intentId,
      domain_name: started.domain.short,
    });
    expect(confirmed.status).toBe(200);
    expect((await row(started.publicId)).status).toBe("paid");
    const page = await render(started.redirect);
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
    const checkout = await render(`/payment/${started.domain.short}`, {
      form: { intent: "checkout", inquiry: started.publicId },
    });
    expect(checkout.status).toBe(303);
    // Already paid: no second checkout is opened for it.
    expect(checkout.location).not.toMatch(/\/pay\//);
    // So a second intent, as a second browser tab would have made it before the first was paid.
    const twin = await stripeDirect().paymentIntents.create({
      amount: 1999,
      currency: "usd",
      metadata: { inquiry_id: started.publicId, domain: started.domain.domain_name },
    });
    fake.confirm(twin.id);
    fake.failNext({
      method: "POST",
      path: "/v1/refunds",
      status: 400,
      stored: true,
      error: { type: "invalid_request_error", message: "Refunds are paused (test)" },
    });
    const confirmed = await postJson("/api/confirm-payment", {
      payment_intent_id: twin.id,
      domain_name: started.domain.short,
    });
    expect(confirmed.json.ok).toBe(true);
    expect(await strayOf(twin.id)).toMatchObject({
      reason: "duplicate",
      state: "due",
      last_error: expect.stringContaining("Refunds are paused"),
    });
    expect(await inbox()).toContain("Second payment for one inquiry");
    await reconcileUntil(
      async () => refundsOf(twin.id).length === 1 && (await strayOf(twin.id))?.state === "refunded",
      "duplicate refund retried and recorded",
    );
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
    const id = (await byIntent(paid.intentId)).id;
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
    expect((await row(paid.publicId)).status).toBe("refunded");
    const keys = fake
      .requestsTo("POST", "/v1/refunds")
      .filter((r) => r.body.payment_intent === paid.intentId)
      .map((r) => r.headers["idempotency-key"]);
    expect(keys).toEqual([`refund-${paid.publicId}`, `refund-${paid.publicId}:1`]);
  });

  it("treats charge_already_refunded (refunded in the Stripe dashboard) as refunded, and emails the buyer on a manual refund", async () => {
    const paid = await paidInquiry("dashboard");
    await stripeDirect().refunds.create({ payment_intent: paid.intentId });
    const response = await adminRefund((await byIntent(paid.intentId)).id);
    expect(response.location).toContain("notice=inquiry-refunded");
    expect((await row(paid.publicId)).status).toBe("refunded");
    const [mail] = await mailsTo(paid.buyerEmail, "has been refunded");
    expect(mail, "refund email").toBeDefined();
    expect(mailText(mail!)).toContain(
      `Your inquiry fee of $19.99 for ${paid.domain.domain_name} has been refunded in full`,
    );
  });

  it("shows a pending refund as pending until Stripe says succeeded, and retries one that failed", async () => {
    const paid = await paidInquiry("pendingrefund");
    const id = (await byIntent(paid.intentId)).id;
    fake.nextRefundStatus("pending");
    expect((await adminRefund(id)).location).toContain("notice=refund-pending");
    expect(await row(paid.publicId)).toMatchObject({ status: "paid", refund_state: "pending" });
    expect(await inbox()).toContain("Refund pending");
    await runReconcilePass();
    expect(await mailsTo(paid.buyerEmail, "has been refunded")).toHaveLength(0);

    // Stripe fails it (the card was closed): not refunded; the next attempt has a new key and succeeds.
    fake.settleRefund((await row(paid.publicId)).refund_id!, "failed");
    await reconcileUntil(async () => (await row(paid.publicId)).refund_state === null, "failed refund seen");
    expect(await row(paid.publicId)).toMatchObject({ status: "paid", refund_key_seq: 1 });
    fake.nextRefundStatus("requires_action");
    await adminRefund(id);
    expect((await row(paid.publicId)).refund_state).toBe("pending");
    fake.settleRefund((await row(paid.publicId)).refund_id!, "succeeded");
    await reconcileUntil(async () => (await row(paid.publicId)).status === "refunded", "pending refund finished");
    expect(await mailsTo(paid.buyerEmail, "has been refunded")).toHaveLength(1);
    expect(await inbox()).not.toContain("Refund pending");
  });

  it("stops retrying a refund that cannot succeed, says so, and lets the admin mark it settled", async () => {
    const paid = await paidInquiry("disputed");
    const id = (await byIntent(paid.intentId)).id;
    fake.failNext({
      method: "POST",
      path: "/v1/refunds",
      status: 400,
      stored: true,
      error: { type: "invalid_request_error", code: "charge_disputed", message: "Charge has been disputed (test)" },
    });
    expect((await adminRefund(id)).status).toBe(502);
    expect((await row(paid.publicId)).refund_state).toBe("gave_up");
    const text = await inbox();
    expect(text).toContain("Refund stopped");
    expect(text).toContain("Charge has been disputed (test)");
    const settled = await render("/admin/inquiries", {
      cookie: admin.cookie,
      form: { intent: "settle-refund", id: String(id) },
    });
    expect(settled.location).toContain("notice=problem-settled");
    expect((await row(paid.publicId)).refund_state).toBe("settled");
    expect(await inbox()).not.toContain("Refund stopped");
  });
});

describe("finding 5: a payment still processing", () => {
  it("shows 'Payment processing', offers no second payment, and is fulfilled when it succeeds", async () => {
    const started = await startIntent("processing");
    fake.startProcessing(started.intentId);
    const confirmed = await postJson("/api/confirm-payment", {
      payment_intent_id: started.intentId,
      domain_name: started.domain.short,
    });
    expect(confirmed.status).toBe(202);
    expect(confirmed.json).toMatchObject({ ok: true, processing: true });
    const page = visibleText((await render(started.redirect)).body);
    expect(page).toContain("Payment processing: we will email you");
    expect(page).not.toContain("Pay $19.99");
    fake.confirm(started.intentId);
    await reconcileUntil(async () => (await row(started.publicId)).status === "paid", "processing payment fulfilled");
    expect(await mailsTo(started.buyerEmail, "Receipt")).toHaveLength(1);
  });
});

describe("finding 6: card testing", () => {
  it("cancels the payment and closes the inquiry after 5 declines; the buyer is told", async () => {
    const started = await startIntent("cardtesting");
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      fake.confirm(started.intentId, "pm_card_chargeDeclined");
      // A while after the last: the same payment is asked about at most once per 2 s of the app's clock.
      clock.advance(2_100);
      const declined = await postJson("/api/confirm-payment", {
        payment_intent_id: started.intentId,
        domain_name: started.domain.short,
      });
      expect(declined.status).toBe(402);
      expect((await row(started.publicId)).declines).toBe(attempt);
    }
    expect(fake.paymentIntents.get(started.intentId)!.status).toBe("canceled");
    expect((await row(started.publicId)).status).toBe("failed");
    const text = visibleText((await render(started.redirect)).body);
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
        render("/api/confirm-payment", {
          json: { payment_intent_id: started.intentId, domain_name: started.domain.short },
        }),
      ),
      ...Array.from({ length: 10 }, () => render(started.redirect)),
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
});

describe("finding 7: mail refused permanently", () => {
  it("stops after a few attempts and shows in the admin as undeliverable with the server's answer", async () => {
    const domain = await createDomain({ prefix: "deadletter", ownerEmail: "nobody@owner.example" });
    const started = await postJson("/api/create-payment-intent", {
      domain_name: domain.short,
      customer_info: BUYER,
    });
    fake.confirm(started.json.payment_intent_id);
    await postJson("/api/confirm-payment", {
      payment_intent_id: started.json.payment_intent_id,
      domain_name: domain.short,
    });
    const inquiryId = (await byIntent(started.json.payment_intent_id)).id;
    const ownerMail = () =>
      db
        .selectFrom("outbox")
        .select(["attempts", "dead_at", "last_error"])
        .where("inquiry_id", "=", inquiryId)
        .where("kind", "=", "owner_inquiry")
        .executeTakeFirstOrThrow();
    // Each attempt at its retry time (MAIL_RETRY_BASE_MS apart, doubling), until it stops.
    for (let attempt = 0; attempt < 6 && !(await ownerMail()).dead_at; attempt++) {
      await sendDueMail();
      clock.advance(60_000);
    }
    const dead = await ownerMail();
    expect(dead.dead_at, "dead letter").not.toBeNull();
    expect(dead.attempts).toBe(3);
    expect(dead.last_error).toContain("550");
    clock.advance(60 * 60_000);
    await sendDueMail();
    expect((await ownerMail()).attempts).toBe(3);
    const text = await inbox();
    expect(text).toContain("Undeliverable email to nobody@owner.example");
    expect(text).toContain("No such user here");
  });
});

describe("finding 4: stale pending inquiries", () => {
  it("expire after 24 hours (their payment canceled), start again at today's fee with the form filled in, and are deleted after 30 days", async () => {
    const started = await startIntent("stale");
    clock.advance(DAY_MS + 60_000);
    await runReconcilePass();
    expect((await row(started.publicId)).expired_at, "expiry").toBeTruthy();
    expect((await row(started.publicId)).status).toBe("failed");
    expect(fake.paymentIntents.get(started.intentId)!.status).toBe("canceled");
    await setInquiryFee(2999);
    try {
      const page = await render(started.redirect);
      const text = visibleText(page.body);
      expect(text).toContain("This inquiry was not paid within 24 hours and has expired");
      expect(text).toContain("One-time inquiry fee: $29.99");
      expect(page.body).toContain(BUYER.message);
      expect(page.body).toContain(`value="${started.buyerEmail}"`);
      // A late payment of a canceled inquiry cannot count: the confirm call says so.
      const late = await postJson("/api/confirm-payment", {
        payment_intent_id: started.intentId,
        domain_name: started.domain.short,
      });
      expect(late.status).toBe(402);
    } finally {
      await setInquiryFee(1999);
    }
    clock.advance(30 * DAY_MS + 60 * 60_000);
    await runReconcilePass();
    expect(await findInquiryByPublicId(started.publicId), "purge").toBeNull();
  });
});
