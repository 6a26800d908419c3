// The one way an inquiry becomes paid. The JavaScript confirm call, the no-JavaScript success return,
// the payment page's reconciliation and the Stripe webhook all call fulfilPayment: it asks the provider,
// checks status, amount, currency and domain, then in one transaction marks the inquiry paid, raises
// the domain's inquiry_count, fixes the reply deadline and queues the owner's email and the buyer's
// receipt. The conditional UPDATE (status still 'pending') makes any number of concurrent calls, in
// any number of processes, record one payment and one increment.
import { sql } from "kysely";
import type { Inquiry } from "../../../db/schema";
import { asOneLine } from "../../lib/inquiry";
import { formatUsd } from "../../lib/money";
import { nowIso } from "../runtime/clock.server";
import { db } from "../db/database.server";
import { inTransaction, type Executor } from "../db/dialect.server";
import { env } from "../runtime/env.server";
import { OWNER_INQUIRY_KIND, queueEmail } from "../mail/mail.server";
import {
  getResponseWindowDays,
  getSilencePolicy,
  openReplyWindow,
  ownerReplyLinkText,
  queueBuyerReceipt,
} from "../inquiries/refund-promise.server";
import { findInquiryByPublicId } from "../inquiries/inquiries.server";
import { PaymentNotFoundError, type PaymentProvider, type PaymentState } from "./provider.server";
import { recordStrayPayment, refundStrayPayment } from "./stray-payments.server";
import { log as logger } from "../runtime/log.server";

/** The provider of an inquiry paid with a credit code: no money, never refunded in money. */
export const CREDIT_PROVIDER = "credit";

export type FulfilResult =
  | { ok: true; inquiry: Inquiry; newlyPaid: boolean }
  | {
      ok: false;
      /** "deal": the payment is a deal's price, fulfilled by sale/deal-payment.server.ts. */
      reason: "not_found" | "not_succeeded" | "unknown_inquiry" | "mismatch" | "expired" | "deal";
      message: string;
      state?: PaymentState;
    };

export type PaymentReference = { paymentId: string } | { checkoutId: string };

async function selectInquiry(id: number, executor: Executor = db): Promise<Inquiry> {
  return executor.selectFrom("inquiries").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

/** The conditional UPDATE that makes one payment count: the paid row only for the call that moved it from pending. */
async function markPaid(executor: Executor, inquiryId: number, paymentId: string | null): Promise<Inquiry | undefined> {
  return executor
    .updateTable("inquiries")
    .set((eb) => ({
      status: "paid",
      paid_at: nowIso(),
      payment_intent_id: eb.fn.coalesce(eb.val(paymentId), eb.ref("payment_intent_id")),
      last_error: null,
      // The owner it is sent to: theirs for good, whoever owns the domain later (issue 34 finding 3).
      owner_email: eb
        .selectFrom("domains")
        .select(sql<string>`trim(domains.owner_email)`.as("owner_email"))
        .whereRef("domains.id", "=", "inquiries.domain_id"),
    }))
    .where("id", "=", inquiryId)
    .where("status", "=", "pending")
    .returningAll()
    .executeTakeFirst();
}

async function incrementCount(executor: Executor, domainId: number): Promise<void> {
  await executor
    .updateTable("domains")
    .set((eb) => ({ inquiry_count: eb("inquiry_count", "+", 1), updated_at: nowIso() }))
    .where("id", "=", domainId)
    .execute();
}

function log(msg: string, fields: Record<string, unknown>): void {
  logger.info(fields, msg);
}

export async function fulfilPayment(provider: PaymentProvider, reference: PaymentReference): Promise<FulfilResult> {
  let state: PaymentState | null;
  try {
    state =
      "paymentId" in reference
        ? await provider.retrievePayment(reference.paymentId)
        : await provider.retrieveCheckoutPayment(reference.checkoutId);
  } catch (error) {
    if (error instanceof PaymentNotFoundError) return { ok: false, reason: "not_found", message: error.message };
    throw error;
  }
  if (!state) return { ok: false, reason: "not_succeeded", message: "The checkout has not been paid" };
  if (state.purpose === "deal") return { ok: false, reason: "deal", message: "The payment is a deal's", state };

  const inquiry = state.reference ? await findInquiryByPublicId(state.reference) : null;
  // With Stripe configured, a payment made through the test provider (no money moved) completes nothing.
  if (!inquiry || inquiry.provider !== provider.name || (provider.name === "test" && env.payments !== "test")) {
    log("payment for an unknown inquiry", { paymentId: state.paymentId, inquiry: state.reference });
    return { ok: false, reason: "unknown_inquiry", message: "No inquiry belongs to this payment", state };
  }
  if (state.status !== "succeeded") {
    if ((inquiry.status === "paid" || inquiry.status === "refunded") && inquiry.payment_intent_id === state.paymentId) {
      // e.g. refunded later: the inquiry's own status already says so.
      return { ok: true, inquiry, newlyPaid: false };
    }
    return { ok: false, reason: "not_succeeded", message: state.lastError ?? "The payment has not succeeded", state };
  }
  if (
    state.amountCents !== inquiry.amount_cents ||
    state.currency !== inquiry.currency ||
    state.domainName !== inquiry.domain_name
  ) {
    const message = `Payment ${state.paymentId} does not match the inquiry (amount ${state.amountCents} ${state.currency}, domain ${state.domainName})`;
    await db
      .updateTable("inquiries")
      .set({ last_error: message })
      .where("id", "=", inquiry.id)
      .where("status", "=", "pending")
      .execute();
    log("payment mismatch", { inquiryId: inquiry.id, paymentId: state.paymentId, message });
    // The buyer's money was taken but cannot count: it goes back (retried until it does).
    await recordStrayPayment({
      paymentId: state.paymentId,
      inquiryId: inquiry.id,
      provider: provider.name,
      reason: "mismatch",
      amountCents: state.amountCents,
    });
    await refundStrayPayment(state.paymentId);
    return { ok: false, reason: "mismatch", message, state };
  }

  const paymentId = state.paymentId;
  const amountCents = state.amountCents;
  // Read before the transaction: only the fulfilment's own queries run inside it.
  const windowDays = await getResponseWindowDays();
  const outcome = await inTransaction(async (trx): Promise<"paid" | "already" | "duplicate" | "expired"> => {
    const paid = await markPaid(trx, inquiry.id, paymentId);
    if (paid) {
      await incrementCount(trx, inquiry.domain_id);
      const paidInquiry = await openReplyWindow(paid, windowDays, trx);
      await queueOwnerEmail(paidInquiry, trx);
      await queueBuyerReceipt(paidInquiry, trx);
      return "paid";
    }
    const row = await selectInquiry(inquiry.id, trx);
    // A payment for an inquiry that expired unpaid (its payments were canceled; one got through anyway).
    const reason = row.status === "failed" ? "expired" : row.payment_intent_id === paymentId ? "already" : "duplicate";
    if (reason !== "already") {
      await recordStrayPayment({ paymentId, inquiryId: inquiry.id, provider: provider.name, reason, amountCents }, trx);
    }
    return reason;
  });

  const current = await selectInquiry(inquiry.id);
  if (outcome === "paid") log("inquiry paid", { inquiryId: inquiry.id, paymentId, amountCents });
  // A second successful payment (two tabs, two checkouts) is returned now; the reconciler retries a failure.
  if (outcome === "duplicate" || outcome === "expired") await refundStrayPayment(paymentId);
  if (outcome === "expired")
    return { ok: false, reason: "expired", message: "This inquiry expired; the payment is refunded.", state };
  return { ok: true, inquiry: current, newlyPaid: outcome === "paid" };
}

/**
 * Fee 0: no payment to check, the inquiry is fulfilled at once (the caller rate-limits). `windowDays`
 * is read by the caller before its transaction, which this joins.
 */
export async function fulfilFreeInquiry(
  inquiry: Inquiry,
  windowDays: number,
  executor: Executor = db,
): Promise<Inquiry> {
  if (inquiry.amount_cents !== 0) throw new Error("Only a free inquiry can be fulfilled without payment");
  return inTransaction(async (trx) => {
    const paid = await markPaid(trx, inquiry.id, null);
    if (!paid) return selectInquiry(inquiry.id, trx);
    await incrementCount(trx, inquiry.domain_id);
    const fulfilled = await openReplyWindow(paid, windowDays, trx);
    await queueOwnerEmail(fulfilled, trx);
    return fulfilled;
  }, executor);
}

/**
 * Paid with a credit code (claimed by the caller in the same transaction): fulfilled at once like a
 * paid inquiry, with the same count, reply deadline and emails.
 */
export async function fulfilCreditInquiry(inquiry: Inquiry, windowDays: number, executor: Executor): Promise<Inquiry> {
  if (inquiry.provider !== CREDIT_PROVIDER)
    throw new Error("Only an inquiry paid with credit can be fulfilled by a credit");
  const paid = await markPaid(executor, inquiry.id, null);
  if (!paid) return selectInquiry(inquiry.id, executor);
  await incrementCount(executor, inquiry.domain_id);
  const fulfilled = await openReplyWindow(paid, windowDays, executor);
  await queueOwnerEmail(fulfilled, executor);
  await queueBuyerReceipt(fulfilled, executor);
  return fulfilled;
}

async function queueOwnerEmail(inquiry: Inquiry, executor: Executor): Promise<void> {
  const to = inquiry.owner_email || env.ADMIN_EMAIL || "";
  if (!to) {
    log("no owner address: inquiry kept, no email sent", { inquiryId: inquiry.id, domain: inquiry.domain_name });
    return;
  }
  await queueEmail(
    {
      kind: OWNER_INQUIRY_KIND,
      to,
      replyTo: inquiry.email,
      subject: `New inquiry for ${inquiry.domain_name} from ${inquiry.name}${inquiry.provider === CREDIT_PROVIDER ? " (paid with credit)" : ""}`,
      text: ownerEmailText(inquiry) + ownerReplyLinkText(inquiry, await getSilencePolicy(executor)),
      inquiryId: inquiry.id,
    },
    executor,
  );
}

export function ownerEmailText(inquiry: Inquiry): string {
  const fee =
    inquiry.provider === CREDIT_PROVIDER
      ? "paid with credit (a credit from an earlier inquiry)"
      : inquiry.amount_cents > 0
        ? `paid an inquiry fee of ${formatUsd(inquiry.amount_cents)}`
        : "sent a free inquiry";
  const name = asOneLine(inquiry.name);
  return [
    `A buyer has ${fee} to contact you about ${inquiry.domain_name}.`,
    "",
    `Domain: ${inquiry.domain_name}`,
    // One line each, even for a row saved before line breaks were refused: the buyer's own paragraphs go
    // under "Message:" only.
    `Name: ${name}`,
    `Email: ${asOneLine(inquiry.email)}`,
    `Phone: ${asOneLine(inquiry.phone) || "not given"}`,
    `Offer: ${asOneLine(inquiry.offer) || "not given"}`,
    "",
    "Message:",
    inquiry.message,
    "",
    `Reply to this email to answer ${name} directly.`,
    `Reference: ${inquiry.public_id}`,
  ].join("\n");
}
