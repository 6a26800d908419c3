// Successful payments that cannot count for their inquiry: a second payment for one inquiry (two tabs,
// a replaced checkout whose payment finished late), one that does not match the inquiry (amount,
// currency, domain), or one for an inquiry that expired. Each is recorded (never only logged) and
// refunded, retried with backoff like the automatic refunds until the provider says it is refunded;
// a refusal that will not change stops and waits for the admin, who can mark it settled.
import type { ExpressionBuilder, Selectable } from "kysely";
import type { Database as Schema, StrayPaymentsTable } from "../../../db/schema";
import { now, nowIso } from "../runtime/clock.server";
import { db, isDatabaseOpen } from "../db/database.server";
import type { Executor } from "../db/dialect.server";
import { env } from "../runtime/env.server";
import {
  attemptRefund,
  checkRefund,
  MAX_REFUND_ATTEMPTS,
  refundKey,
  type RefundAttempt,
} from "../refunds/refunds.server";
import { getPaymentProvider, type ProviderName } from "./index.server";
import { log } from "../runtime/log.server";

export type StrayPayment = Selectable<StrayPaymentsTable>;
export type StrayReason = StrayPayment["reason"];

const LEASE_MS = 5 * 60 * 1000;
const MAX_BACKOFF_MS = 6 * 60 * 60 * 1000;

/** Open for an attempt at `at`: still to refund or pending, its next attempt due, nobody's lease on it. */
function isOpen(eb: ExpressionBuilder<Schema, "stray_payments">, at: string) {
  return eb.and([
    eb("state", "in", ["due", "pending"]),
    eb("next_attempt_at", "<=", at),
    eb.or([eb("lease_until", "is", null), eb("lease_until", "<=", at)]),
  ]);
}

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
  log.warn({ ...stray }, "payment to refund recorded");
}

/** What an attempt leaves on the record: its state, counters, next attempt and error; the lease ends. */
type Outcome = Pick<StrayPayment, "state" | "attempts" | "key_seq" | "next_attempt_at" | "refund_id" | "last_error">;

async function recordOutcome(paymentId: string, outcome: Outcome, at: string): Promise<void> {
  await db
    .updateTable("stray_payments")
    .set({ ...outcome, lease_until: null, updated_at: at })
    .where("payment_id", "=", paymentId)
    .execute();
}

/** Refunds one recorded payment if it is due (or asks about its pending refund). Never throws. */
export async function refundStrayPayment(paymentId: string): Promise<StrayPayment["state"] | null> {
  const claimedAt = now();
  const lease = new Date(claimedAt.getTime() + LEASE_MS).toISOString();
  // The claim: one process's conditional UPDATE changes the row; every other one sees it leased.
  const claim = await db
    .updateTable("stray_payments")
    .set({ lease_until: lease })
    .where("payment_id", "=", paymentId)
    .where((eb) => isOpen(eb, claimedAt.toISOString()))
    .executeTakeFirst();
  if (claim.numUpdatedRows !== 1n) return null;
  const stray = await db
    .selectFrom("stray_payments")
    .selectAll()
    .where("payment_id", "=", paymentId)
    .executeTakeFirstOrThrow();
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
  if (!isDatabaseOpen()) return null;
  const at = now();
  if (attempt.kind === "succeeded" || attempt.kind === "pending") {
    const state = attempt.kind === "succeeded" ? "refunded" : "pending";
    await recordOutcome(
      paymentId,
      {
        state,
        attempts: stray.attempts,
        key_seq: stray.key_seq,
        next_attempt_at: new Date(at.getTime() + env.REFUND_RETRY_BASE_MS).toISOString(),
        refund_id: attempt.refundId,
        last_error: null,
      },
      at.toISOString(),
    );
    log.info({ paymentId, inquiryId: stray.inquiry_id, refundId: attempt.refundId }, `payment to refund: ${state}`);
    return state;
  }
  const attempts = stray.attempts + 1;
  const state = attempt.permanent || attempts >= MAX_REFUND_ATTEMPTS ? "gave_up" : "due";
  await recordOutcome(
    paymentId,
    {
      state,
      attempts,
      key_seq: stray.key_seq + (attempt.definite ? 1 : 0),
      next_attempt_at: new Date(at.getTime() + backoffMs(attempts)).toISOString(),
      refund_id: stray.refund_id,
      last_error: attempt.message.slice(0, 500),
    },
    at.toISOString(),
  );
  log.error({ paymentId, attempts, state, error: attempt.message }, "payment to refund: refund failed");
  return state;
}

/** Stripe said a pending refund changed (webhook): ask about it now rather than at its next check. */
export async function followStrayRefund(paymentId: string): Promise<StrayPayment["state"] | null> {
  const asked = await db
    .updateTable("stray_payments")
    .set({ next_attempt_at: nowIso() })
    .where("payment_id", "=", paymentId)
    .where("state", "=", "pending")
    .executeTakeFirst();
  if (asked.numUpdatedRows !== 1n) return null;
  return refundStrayPayment(paymentId);
}

/** Every due refund once; the reconciler's pass calls it. Each is claimed before it is refunded. */
export async function runStrayRefundPass(): Promise<void> {
  const at = nowIso();
  const due = await db
    .selectFrom("stray_payments")
    .select("payment_id")
    .where((eb) => isOpen(eb, at))
    .orderBy("next_attempt_at")
    .limit(25)
    .execute();
  for (const { payment_id } of due) {
    if (!isDatabaseOpen()) return;
    await refundStrayPayment(payment_id);
  }
}

/** The admin inbox's problems: payments still to refund, pending, or given up. */
export async function listOpenStrayPayments() {
  return db
    .selectFrom("stray_payments as s")
    .leftJoin("inquiries as i", "i.id", "s.inquiry_id")
    .selectAll("s")
    .select(["i.domain_name", "i.email"])
    .where("s.state", "in", ["due", "pending", "gave_up"])
    .orderBy("s.created_at", "desc")
    .limit(100)
    .execute();
}

/** The admin settled a stray payment whose refund gave up; true when it changed. */
export async function markStrayPaymentSettled(paymentId: string): Promise<boolean> {
  const settled = await db
    .updateTable("stray_payments")
    .set({ state: "settled", updated_at: nowIso() })
    .where("payment_id", "=", paymentId)
    .where("state", "=", "gave_up")
    .executeTakeFirst();
  return settled.numUpdatedRows === 1n;
}
