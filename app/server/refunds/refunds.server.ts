// Refunds an inquiry's fee through the provider that took it: the admin's button, the automatic refund
// and the reconciler's check of a pending refund all come here. Safe to call twice or from two places at
// once: only a conditional UPDATE ... WHERE status = 'paid' marks it refunded (and queues the buyer's
// email, one per inquiry). Stripe replays the first answer for an idempotency key for 24 hours, errors
// included, so after a definite failure the next attempt uses a new key (refund_key_seq); a timeout is
// retried with the same key, so a refund Stripe did make is never made twice.
import type { ExpressionBuilder } from "kysely";
import type { Database as Schema, Inquiry } from "../../../db/schema";
import { formatUsd } from "../../lib/money";
import { feePromiseText } from "../../lib/response-window";
import { now, nowIso } from "../runtime/clock.server";
import { db } from "../db/database.server";
import { inTransaction, type Executor } from "../db/dialect.server";
import { queueEmail } from "../mail/mail.server";
import { getPaymentProvider, RefundError, type PaymentProvider, type ProviderName } from "../payments/index.server";
import { formatUtc, promisedDays } from "../inquiries/refund-promise.server";
import { log } from "../runtime/log.server";
import { dealHoldsFeeOf } from "../sale/deals.server";

export const REFUND_EMAIL_KIND = "refund";

/** No refund holds the inquiry at `at` (ISO): its lease is unset or ran out. The claims of every refund path test it. */
export function refundLeaseFree(eb: ExpressionBuilder<Schema, "inquiries">, at: string) {
  return eb.or([eb("refund_lease_until", "is", null), eb("refund_lease_until", "<=", at)]);
}
/**
 * A refund of the inquiry was tried (by the scheduler or the admin) and it is not over: it failed or timed
 * out and is retried, and after a timeout the provider may have made it. Such a fee never becomes a credit.
 */
export function refundTried(eb: ExpressionBuilder<Schema, "inquiries">) {
  return eb.or([
    eb("refund_attempts", ">", 0),
    eb("refund_next_attempt_at", "is not", null),
    eb("last_error", "is not", null),
  ]);
}

/** Failed attempts after which a refund stops retrying by itself and waits for the admin. */
export const MAX_REFUND_ATTEMPTS = 8;

export type RefundOutcome =
  | { status: "refunded"; refundId: string }
  | { status: "already-refunded" }
  | { status: "pending"; refundId: string }
  | { status: "failed"; message: string; permanent: boolean }
  | { status: "not-found" | "not-refundable"; message: string };

export type RefundAttempt =
  | { kind: "succeeded"; refundId: string }
  | { kind: "pending"; refundId: string }
  | { kind: "failed"; message: string; definite: boolean; permanent: boolean };

/** The idempotency key of the attempt: the first keeps the historical `base`, later ones a suffix. */
export function refundKey(base: string, seq: number): string {
  return seq === 0 ? base : `${base}:${seq}`;
}

function asAttempt(result: {
  refundId: string;
  status: "succeeded" | "pending" | "failed";
  failureReason?: string | null;
}): RefundAttempt {
  if (result.status === "succeeded") return { kind: "succeeded", refundId: result.refundId };
  if (result.status === "pending") return { kind: "pending", refundId: result.refundId };
  const reason = result.failureReason ? ` (${result.failureReason})` : "";
  return {
    kind: "failed",
    message: `The payment provider could not complete the refund${reason}.`,
    definite: true,
    permanent: false,
  };
}

function asFailure(error: unknown): RefundAttempt {
  const message = (error as Error).message || String(error);
  if (error instanceof RefundError)
    return { kind: "failed", message, definite: error.definite, permanent: error.permanent };
  return { kind: "failed", message, definite: false, permanent: false };
}

/** One refund request; never throws. */
export async function attemptRefund(provider: PaymentProvider, paymentId: string, key: string): Promise<RefundAttempt> {
  try {
    return asAttempt(await provider.refund(paymentId, key));
  } catch (error) {
    return asFailure(error);
  }
}

/** Asks the provider about a refund that was pending; never throws. */
export async function checkRefund(provider: PaymentProvider, refundId: string): Promise<RefundAttempt> {
  try {
    return asAttempt(await provider.retrieveRefund(refundId));
  } catch (error) {
    const failure = asFailure(error);
    // Not being able to ask is not a failed refund: it stays pending.
    return failure.kind === "failed" && !failure.permanent ? { kind: "pending", refundId } : failure;
  }
}

async function selectInquiry(id: number, executor: Executor = db): Promise<Inquiry | undefined> {
  return executor.selectFrom("inquiries").selectAll().where("id", "=", id).executeTakeFirst();
}

export function refundEmailText(inquiry: Inquiry): string {
  const amount = formatUsd(inquiry.amount_cents);
  const deadline = inquiry.reply_deadline_at;
  const promised = !inquiry.answered_at && deadline !== null && Date.parse(deadline) <= now().getTime();
  // Offered the choice (or having made it): the inquiry was under "Let the buyer choose refund or credit".
  const policy = inquiry.credit_offered_at || inquiry.fee_choice ? "choose" : "refund";
  const how =
    policy === "refund"
      ? "As promised, your"
      : inquiry.fee_choice === "refund"
        ? "You chose the refund: your"
        : "You did not choose a credit in time, so your";
  return [
    `Hello ${inquiry.name},`,
    "",
    promised
      ? [
          `The owner of ${inquiry.domain_name} did not confirm a reply to your inquiry by ${formatUtc(deadline)}.`,
          `Our promise: ${feePromiseText(policy, promisedDays(inquiry))}`,
          `${how} inquiry fee of ${amount} has been refunded in full to your original payment method.`,
        ].join("\n")
      : `Your inquiry fee of ${amount} for ${inquiry.domain_name} has been refunded in full to your original payment method.`,
    "Depending on your bank it can take 5-10 business days to appear on your statement.",
    "",
    `Reference: ${inquiry.public_id}`,
  ].join("\n");
}

/** Records the provider's answer on the inquiry. A refund that succeeded emails the buyer (once). */
async function record(inquiry: Inquiry, attempt: RefundAttempt, failedAttempts: number): Promise<RefundOutcome> {
  if (attempt.kind === "succeeded") {
    const changed = await inTransaction(async (trx) => {
      const marked = await trx
        .updateTable("inquiries")
        .set({
          status: "refunded",
          refunded_at: nowIso(),
          refund_id: attempt.refundId,
          refund_state: null,
          last_error: null,
          refund_lease_until: null,
          refund_next_attempt_at: null,
          refund_last_error: null,
        })
        .where("id", "=", inquiry.id)
        .where("status", "=", "paid")
        .executeTakeFirst();
      if (marked.numUpdatedRows !== 1n) return false;
      const refunded = (await selectInquiry(inquiry.id, trx))!;
      await queueEmail(
        {
          kind: REFUND_EMAIL_KIND,
          to: refunded.email,
          subject: `Your inquiry fee for ${refunded.domain_name} has been refunded`,
          text: refundEmailText(refunded),
          inquiryId: refunded.id,
        },
        trx,
      );
      return true;
    });
    if (changed) log.info({ inquiryId: inquiry.id, refundId: attempt.refundId }, "inquiry refunded");
    return changed ? { status: "refunded", refundId: attempt.refundId } : { status: "already-refunded" };
  }
  if (attempt.kind === "pending") {
    await db
      .updateTable("inquiries")
      .set({ refund_state: "pending", refund_id: attempt.refundId, last_error: null })
      .where("id", "=", inquiry.id)
      .where("status", "=", "paid")
      .execute();
    return { status: "pending", refundId: attempt.refundId };
  }
  const gaveUp = attempt.permanent || failedAttempts >= MAX_REFUND_ATTEMPTS;
  const message = `The refund could not be made: ${attempt.message}`.slice(0, 500);
  // After a definite failure the next attempt needs a new idempotency key (see the top of this file).
  await db
    .updateTable("inquiries")
    .set((eb) => ({
      last_error: message,
      refund_key_seq: eb("refund_key_seq", "+", attempt.definite ? 1 : 0),
      refund_state: gaveUp ? "gave_up" : null,
    }))
    .where("id", "=", inquiry.id)
    .where("status", "=", "paid")
    .execute();
  log.error({ inquiryId: inquiry.id, definite: attempt.definite, gaveUp, error: attempt.message }, "refund failed");
  return { status: "failed", message, permanent: gaveUp };
}

/**
 * Refunds a paid inquiry, or (when a refund is pending) asks the provider whether it finished.
 * `failedAttempts`: how many attempts failed before, so a refund that keeps failing gives up.
 */
export async function refundInquiry(inquiryId: number, failedAttempts = 0): Promise<RefundOutcome> {
  const inquiry = await selectInquiry(inquiryId);
  if (!inquiry) return { status: "not-found", message: "That inquiry does not exist." };
  if (inquiry.status === "refunded") return { status: "already-refunded" };
  if (inquiry.status !== "paid") return { status: "not-refundable", message: "Only a paid inquiry can be refunded." };
  if (inquiry.provider === "credit")
    return { status: "not-refundable", message: "An inquiry paid with a credit is never refunded in money." };
  if (inquiry.credited_at) {
    return {
      status: "not-refundable",
      message: "This fee became a credit for the buyer; it is not refunded in money as well.",
    };
  }
  if (await dealHoldsFeeOf(inquiry.id)) {
    return {
      status: "not-refundable",
      message: "This fee is credited against the price of this inquiry's deal; it is not refunded in money as well.",
    };
  }
  let provider: PaymentProvider;
  try {
    provider = getPaymentProvider(inquiry.provider as ProviderName);
  } catch (error) {
    return record(inquiry, asFailure(error), failedAttempts + 1);
  }
  if (inquiry.refund_state === "pending" && inquiry.refund_id) {
    return record(inquiry, await checkRefund(provider, inquiry.refund_id), failedAttempts + 1);
  }
  let paymentId = inquiry.payment_intent_id;
  if (!paymentId && inquiry.checkout_session_id) {
    try {
      paymentId = (await provider.retrieveCheckoutPayment(inquiry.checkout_session_id))?.paymentId ?? null;
    } catch (error) {
      return record(inquiry, asFailure(error), failedAttempts + 1);
    }
  }
  if (!paymentId) {
    const missing: RefundAttempt = {
      kind: "failed",
      message: "the payment for this inquiry could not be found at the payment provider.",
      definite: false,
      permanent: true,
    };
    return record(inquiry, missing, failedAttempts + 1);
  }
  const attempt = await attemptRefund(
    provider,
    paymentId,
    refundKey(`refund-${inquiry.public_id}`, inquiry.refund_key_seq),
  );
  return record(inquiry, attempt, failedAttempts + 1);
}

/** The admin dealt with a refund that gave up (refunded by other means, or decided not to). */
export async function markRefundSettled(inquiryId: number): Promise<boolean> {
  const result = await db
    .updateTable("inquiries")
    .set({ refund_state: "settled" })
    .where("id", "=", inquiryId)
    .where("status", "=", "paid")
    .where("refund_state", "=", "gave_up")
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}
