// Successful payments that cannot count for their inquiry: a second payment for one inquiry (two tabs,
// a replaced checkout whose payment finished late), one that does not match the inquiry (amount,
// currency, domain), or one for an inquiry that expired. Each is recorded (never only logged) and
// refunded, retried with backoff like the automatic refunds until the provider says it is refunded;
// a refusal that will not change stops and waits for the admin, who can mark it settled.
import type { Selectable } from "kysely";
import type { StrayPaymentsTable } from "../../../db/schema";
import { now, nowIso } from "../runtime/clock.server";
import { db, lazyStatement, sqlite } from "../db/database.server";
import type { Executor } from "../db/dialect.server";
import { env } from "../runtime/env.server";
import { attemptRefund, checkRefund, MAX_REFUND_ATTEMPTS, refundKey, type RefundAttempt } from "../refunds/refunds.server";
import { getPaymentProvider, type ProviderName } from "./index.server";

export type StrayPayment = Selectable<StrayPaymentsTable>;
export type StrayReason = StrayPayment["reason"];

const LEASE_MS = 5 * 60 * 1000;
const MAX_BACKOFF_MS = 6 * 60 * 60 * 1000;

const OPEN = `state IN ('due', 'pending') AND next_attempt_at <= @now AND (lease_until IS NULL OR lease_until <= @now)`;
const selectDue = lazyStatement<[{ now: string }], { payment_id: string }>(
  `SELECT payment_id FROM stray_payments WHERE ${OPEN} ORDER BY next_attempt_at LIMIT 25`,
);
const claim = lazyStatement<[{ now: string; lease: string; paymentId: string }]>(
  `UPDATE stray_payments SET lease_until = @lease WHERE payment_id = @paymentId AND ${OPEN}`,
);
const selectStray = lazyStatement<[string], StrayPayment>("SELECT * FROM stray_payments WHERE payment_id = ?");
const update = lazyStatement<
  [{ paymentId: string; state: string; attempts: number; keySeq: number; nextAt: string; refundId: string | null; error: string | null; now: string }]
>(
  `UPDATE stray_payments SET state = @state, attempts = @attempts, key_seq = @keySeq, next_attempt_at = @nextAt,
     refund_id = @refundId, last_error = @error, lease_until = NULL, updated_at = @now
   WHERE payment_id = @paymentId`,
);
const settle = lazyStatement<[string, string]>(
  "UPDATE stray_payments SET state = 'settled', updated_at = ? WHERE payment_id = ? AND state = 'gave_up'",
);
const selectOpen = lazyStatement<[], StrayPayment & { domain_name: string | null; email: string | null }>(
  `SELECT s.*, i.domain_name, i.email FROM stray_payments s LEFT JOIN inquiries i ON i.id = s.inquiry_id
   WHERE s.state IN ('due', 'pending', 'gave_up') ORDER BY s.created_at DESC LIMIT 100`,
);

function backoffMs(attempts: number): number {
  return Math.min(env.REFUND_RETRY_BASE_MS * 2 ** Math.min(Math.max(attempts - 1, 0), 20), MAX_BACKOFF_MS);
}

/** Records a payment to refund (once per payment, however many times it is seen); may join the caller's transaction. */
export async function recordStrayPayment(
  stray: { paymentId: string; inquiryId: number | null; provider: string; reason: StrayReason; amountCents: number },
  executor: Executor = db,
): Promise<void> {
  const timestamp = nowIso();
  await executor
    .insertInto("stray_payments")
    .values({
      payment_id: stray.paymentId,
      inquiry_id: stray.inquiryId,
      provider: stray.provider,
      reason: stray.reason,
      amount_cents: stray.amountCents,
      state: "due",
      next_attempt_at: timestamp,
      created_at: timestamp,
      updated_at: timestamp,
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
  console.error(JSON.stringify({ msg: "payment to refund recorded", ...stray }));
}

/** Refunds one recorded payment if it is due (or asks about its pending refund). Never throws. */
export async function refundStrayPayment(paymentId: string): Promise<StrayPayment["state"] | null> {
  const claimedAt = now();
  const lease = new Date(claimedAt.getTime() + LEASE_MS).toISOString();
  if (claim().run({ now: claimedAt.toISOString(), lease, paymentId }).changes !== 1) return null;
  const stray = selectStray().get(paymentId)!;
  let attempt: RefundAttempt;
  try {
    const provider = getPaymentProvider(stray.provider as ProviderName);
    attempt =
      stray.state === "pending" && stray.refund_id
        ? await checkRefund(provider, stray.refund_id)
        : await attemptRefund(provider, paymentId, refundKey(`${stray.reason}-refund:${paymentId}`, stray.key_seq));
  } catch (error) {
    attempt = { kind: "failed", message: (error as Error).message, definite: false, permanent: false };
  }
  if (!sqlite.open) return null;
  const at = now();
  if (attempt.kind === "succeeded" || attempt.kind === "pending") {
    const state = attempt.kind === "succeeded" ? "refunded" : "pending";
    const nextAt = new Date(at.getTime() + env.REFUND_RETRY_BASE_MS).toISOString();
    update().run({ paymentId, state, attempts: stray.attempts, keySeq: stray.key_seq, nextAt, refundId: attempt.refundId, error: null, now: at.toISOString() });
    console.log(JSON.stringify({ msg: `payment to refund: ${state}`, paymentId, inquiryId: stray.inquiry_id, refundId: attempt.refundId }));
    return state;
  }
  const attempts = stray.attempts + 1;
  const state = attempt.permanent || attempts >= MAX_REFUND_ATTEMPTS ? "gave_up" : "due";
  update().run({
    paymentId,
    state,
    attempts,
    keySeq: stray.key_seq + (attempt.definite ? 1 : 0),
    nextAt: new Date(at.getTime() + backoffMs(attempts)).toISOString(),
    refundId: stray.refund_id,
    error: attempt.message.slice(0, 500),
    now: at.toISOString(),
  });
  console.error(JSON.stringify({ msg: "payment to refund: refund failed", paymentId, attempts, state, error: attempt.message }));
  return state;
}

const askNow = lazyStatement<[string, string]>(
  "UPDATE stray_payments SET next_attempt_at = ? WHERE payment_id = ? AND state = 'pending'",
);

/** Stripe said a pending refund changed (webhook): ask about it now rather than at its next check. */
export async function followStrayRefund(paymentId: string): Promise<StrayPayment["state"] | null> {
  if (askNow().run(nowIso(), paymentId).changes !== 1) return null;
  return refundStrayPayment(paymentId);
}

/** Every due refund once; the reconciler's pass calls it. */
export async function runStrayRefundPass(): Promise<void> {
  for (const { payment_id } of selectDue().all({ now: nowIso() })) {
    if (!sqlite.open) return;
    await refundStrayPayment(payment_id);
  }
}

/** The admin inbox's problems: payments still to refund, pending, or given up. */
export function listOpenStrayPayments() {
  return selectOpen().all();
}

export function markStrayPaymentSettled(paymentId: string): boolean {
  return settle().run(nowIso(), paymentId).changes === 1;
}
