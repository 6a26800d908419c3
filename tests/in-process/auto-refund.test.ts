import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// The real stripe SDK against a Stripe-compatible server started before the app loads (its URL is a setting).
const { fake, STRIPE_TIMEOUT_MS } = await vi.hoisted(async () => {
  const { startStripeForApp } = await import("../support/in-process/stripe");
  const STRIPE_TIMEOUT_MS = 1500;
  const fake = await startStripeForApp({ STRIPE_TIMEOUT_MS: String(STRIPE_TIMEOUT_MS), REFUND_RETRY_BASE_MS: "1500" });
  return { fake, STRIPE_TIMEOUT_MS };
});

import { setInquiryFee } from "../../app/server/catalog/settings.server";
import { db } from "../../app/server/db/database.server";
import { findInquiryByPaymentId, findInquiryByPublicId } from "../../app/server/inquiries/inquiries.server";
import { runRefundPass } from "../../app/server/refunds/auto-refund.server";
import { setSilencePolicy } from "../../app/server/inquiries/refund-promise.server";
import { refundInquiry } from "../../app/server/refunds/refunds.server";
import { BUYER, createAdmin, createDomain, type TestAdmin } from "../support/factories";
import { DAY_MS, useTestClock } from "../support/in-process/clock";
import { render } from "../support/in-process/document";
import { sentMail } from "../support/in-process/mail";
import { linkIn, mailText, onServer, replyLinkIn, subjectOf } from "../support/refund-promise";
import { visibleText } from "../support/visible-text";

// The refund scheduler's pass against the real stripe SDK and a Stripe-compatible server, with the clock
// moved by the test and the pass run when the test says (as the scheduler would run it then). A refund cut
// off by a crash, two servers on one database and a restart: the integration test of the same name.
const PAST_DEADLINE = 7 * DAY_MS + 60_000;
const clock = useTestClock();
let admin: TestAdmin;
beforeAll(async () => {
  admin = await createAdmin();
  await setInquiryFee(1999);
  // Today's behaviour, the admin's "Refund automatically" (refund-or-credit.test.ts covers the other policy).
  await setSilencePolicy("refund");
});
afterAll(async () => {
  await fake.stop();
});

const refundPass = () => runRefundPass(refundInquiry);
const postJson = async (path: string, json: unknown) => {
  const reply = await render(path, { json });
  return { status: reply.status, json: JSON.parse(reply.body) as Record<string, unknown> };
};

/** A buyer pays through the JavaScript path (PaymentIntent, confirmed as Stripe.js would). */
async function payWithStripe() {
  const domain = await createDomain({ prefix: "autorefund" });
  const buyerEmail = `buyer-${domain.id}@buyer.example`;
  const created = await postJson("/api/create-payment-intent", {
    domain_name: domain.short,
    customer_info: { ...BUYER, email: buyerEmail },
  });
  expect(created.status).toBe(200);
  const intentId = created.json.payment_intent_id as string;
  fake.confirm(intentId, "pm_card_visa");
  const confirmed = await postJson("/api/confirm-payment", {
    payment_intent_id: intentId,
    domain_name: domain.short,
    customer_info: BUYER,
  });
  expect(confirmed.json.ok).toBe(true);
  const publicId = (await findInquiryByPaymentId(intentId))!.public_id;
  return { domain, intentId, buyerEmail, publicId };
}

const inquiryRow = async (publicId: string) => (await findInquiryByPublicId(publicId))!;
const refundsFor = (intentId: string) =>
  [...fake.refunds.values()].filter((refund) => refund.payment_intent === intentId);
const refundMails = async (buyerEmail: string) =>
  (await sentMail()).filter((m) => m.to.includes(buyerEmail) && subjectOf(m).includes("has been refunded"));
const choiceMails = async (buyerEmail: string) =>
  (await sentMail()).filter((m) => m.to.includes(buyerEmail) && subjectOf(m).startsWith("Refund or credit"));
async function creditsFrom(inquiryId: number): Promise<number> {
  const row = await db
    .selectFrom("credits")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("source_inquiry_id", "=", inquiryId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
/** The buyer's page, from the receipt's link. */
async function buyerPageLink(buyerEmail: string): Promise<string> {
  const receipt = (await sentMail()).find((m) => m.to.includes(buyerEmail) && subjectOf(m).startsWith("Receipt"));
  if (!receipt) throw new Error(`no receipt to ${buyerEmail}`);
  return linkIn(receipt, "/inquiry/");
}
/** "Take a credit instead" posted from the buyer's page without JavaScript. */
const takeCredit = (link: string) => render(link, { form: { intent: "choose-credit" } });

/** The clock just past an inquiry's next refund attempt, and the pass that then runs. */
async function passAtNextAttempt(publicId: string) {
  const next = (await inquiryRow(publicId)).refund_next_attempt_at;
  if (next) clock.set(Date.parse(next) + 1_000 - Date.now());
  await refundPass();
}

/** The fee went back once, in money: refunded, one refund at Stripe, no credit and no offer of one. */
async function expectRefundedOnceNotCredited(inquiry: { publicId: string; intentId: string; buyerEmail: string }) {
  for (let pass = 0; pass < 5 && (await inquiryRow(inquiry.publicId)).status !== "refunded"; pass++)
    await passAtNextAttempt(inquiry.publicId);
  const row = await inquiryRow(inquiry.publicId);
  expect(row.status, "the retried refund").toBe("refunded");
  expect(refundsFor(inquiry.intentId)).toHaveLength(1);
  expect(await creditsFrom(row.id)).toBe(0);
  expect(await choiceMails(inquiry.buyerEmail)).toHaveLength(0);
}

describe("automatic refunds", () => {
  it("refunds an unanswered inquiry once after the window, emails the buyer, and never refunds an answered one", async () => {
    const unanswered = await payWithStripe();
    const answered = await payWithStripe();
    const ownerMail = (await sentMail()).find(
      (m) => subjectOf(m).startsWith("New inquiry") && mailText(m).includes(answered.publicId),
    );
    expect(ownerMail, "owner email").toBeDefined();
    const replied = await render(onServer(replyLinkIn(ownerMail!)), { form: { intent: "replied-by-email" } });
    expect(replied.status).toBe(303);

    // Within the window nothing happens, however many passes run.
    clock.set(7 * DAY_MS - 60_000);
    await refundPass();
    await refundPass();
    expect((await inquiryRow(unanswered.publicId)).status).toBe("paid");
    expect(refundsFor(unanswered.intentId)).toHaveLength(0);

    clock.set(PAST_DEADLINE);
    await refundPass();
    const refunded = await inquiryRow(unanswered.publicId);
    expect(refunded.status).toBe("refunded");
    expect(refunded.refunded_at).toBeTruthy();
    expect(refunded.refund_attempts).toBe(1);
    const [mail] = await refundMails(unanswered.buyerEmail);
    expect(subjectOf(mail!)).toBe(`Your inquiry fee for ${unanswered.domain.domain_name} has been refunded`);
    expect(mailText(mail!)).toContain("your inquiry fee of $19.99 has been refunded in full");

    // More passes later: still one refund at the provider, one email; the answered inquiry is untouched.
    clock.advance(60_000);
    await refundPass();
    await refundPass();
    expect(refundsFor(unanswered.intentId)).toHaveLength(1);
    expect(
      fake.requestsTo("POST", "/v1/refunds").filter((r) => r.body.payment_intent === unanswered.intentId)[0]!.headers[
        "idempotency-key"
      ],
    ).toBe(`refund-${unanswered.publicId}`);
    expect(await refundMails(unanswered.buyerEmail)).toHaveLength(1);
    expect(await inquiryRow(answered.publicId)).toMatchObject({
      status: "paid",
      refund_attempts: 0,
      refunded_at: null,
    });
    expect(refundsFor(answered.intentId)).toHaveLength(0);
    expect(await refundMails(answered.buyerEmail)).toHaveLength(0);
  });

  it("a provider failure is retried with backoff, shown in the inbox, and refunded once in the end", async () => {
    const inquiry = await payWithStripe();
    // The fake refuses the next two refunds (a 400 is not retried by the SDK itself).
    fake.failNext({
      method: "POST",
      path: "/v1/refunds",
      status: 400,
      times: 2,
      error: { type: "invalid_request_error", message: "Refunds are unavailable (test outage)" },
    });
    clock.set(PAST_DEADLINE);
    await refundPass();
    // The claim counts the attempt before the provider answers; the failure is recorded after it.
    const failed = await inquiryRow(inquiry.publicId);
    expect(failed.refund_attempts).toBe(1);
    expect(failed.status).toBe("paid");
    expect(failed.refund_last_error).toContain("Refunds are unavailable (test outage)");
    expect(Date.parse(failed.refund_next_attempt_at!)).toBeGreaterThan(Date.parse(failed.reply_deadline_at!));

    const inbox = visibleText(
      (await render(`/admin/inquiries?domain=${inquiry.domain.domain_name}`, { cookie: admin.cookie })).body,
    );
    expect(inbox).toContain("Refunds are unavailable (test outage)");
    expect(inbox, inbox).toMatch(/Automatic refund: [12] failed attempts?, next attempt/);

    // Before its next attempt a pass leaves it alone; at it, the refund is tried again.
    await refundPass();
    expect((await inquiryRow(inquiry.publicId)).refund_attempts).toBe(1);
    for (let pass = 0; pass < 5 && (await inquiryRow(inquiry.publicId)).status !== "refunded"; pass++)
      await passAtNextAttempt(inquiry.publicId);
    const refunded = await inquiryRow(inquiry.publicId);
    expect(refunded.status).toBe("refunded");
    expect(refunded.refund_attempts).toBe(3);
    expect(refunded.refund_last_error).toBeNull();
    expect(await refundMails(inquiry.buyerEmail)).toHaveLength(1);
    await refundPass();
    expect(refundsFor(inquiry.intentId)).toHaveLength(1);
    expect(await refundMails(inquiry.buyerEmail)).toHaveLength(1);
  });

  // The SDK's own timeouts and retries take real time (three times STRIPE_TIMEOUT_MS).
  it(
    "a refund whose outcome is unknown (a provider timeout) is retried, never offered or taken as a credit",
    { timeout: 30_000 },
    async () => {
      const inquiry = await payWithStripe();
      const link = await buyerPageLink(inquiry.buyerEmail);
      // Stripe makes the refund but its answer never arrives in time (nor to the SDK's own retries).
      fake.delayNext({ method: "POST", path: "/v1/refunds", ms: 4 * STRIPE_TIMEOUT_MS, times: 3 });
      try {
        clock.set(PAST_DEADLINE);
        await refundPass();
        expect((await inquiryRow(inquiry.publicId)).refund_next_attempt_at, "the timeout").not.toBeNull();
        expect(refundsFor(inquiry.intentId)).toHaveLength(1);
        // The admin now lets buyers choose: this fee may already be refunded, so it is no choice.
        await setSilencePolicy("choose");
        expect(visibleText((await render(link)).body)).not.toContain("Take a credit instead");
        const taken = await takeCredit(link);
        expect(taken.status).toBe(409);
        expect(visibleText(taken.body)).toMatch(/Your fee (is already being|has already been) refunded\./);
        await expectRefundedOnceNotCredited(inquiry);
      } finally {
        fake.clearDelays();
        await setSilencePolicy("refund");
      }
    },
  );
});
