// The refund scheduler: every REFUND_SCHEDULER_INTERVAL_MS it refunds each paid inquiry whose reply
// deadline passed without a confirmed reply. All of its state is in the database, so it survives restarts
// and any number of passes or processes refund an inquiry once:
//   - an inquiry is claimed by a conditional UPDATE that sets a lease; only one claimer sees a change;
//   - the provider call carries the refund's idempotency key, so a retry after a crash between the
//     provider's answer and our UPDATE is answered with the same refund, not a second one;
//   - the buyer's email is queued in the same transaction that records the refund (one per inquiry).
// A provider failure releases the lease and schedules a retry with exponential backoff; the attempt
// count, next attempt and last error stay on the inquiry for the admin inbox. Nothing is dropped.
import type { ExpressionBuilder } from "kysely";
import type { Database as Schema } from "../../../db/schema";
import { now, nowIso } from "../runtime/clock.server";
import { db, isDatabaseOpen } from "../db/database.server";
import { env } from "../runtime/env.server";
import { log } from "../runtime/log.server";
import { refundInquiry, refundLeaseFree, refundTried, type RefundOutcome } from "./refunds.server";
import { offerChoices, recreditSilentCreditInquiries } from "../inquiries/fee-choice.server";
import { getSilencePolicy, type SilencePolicy } from "../inquiries/refund-promise.server";

/** Refunds one inquiry through the payment provider (refunds.server.ts records the answer and emails the buyer). */
export type RefundOneInquiry = (inquiryId: number, failedAttempts: number) => Promise<RefundOutcome>;

export { REFUND_EMAIL_KIND } from "./refunds.server";
const LEASE_MS = 5 * 60 * 1000;
const MAX_BACKOFF_MS = 6 * 60 * 60 * 1000;
const BATCH_SIZE = 25;
const CHOSEN_REFUND_WAIT_MS = 3000;

/**
 * Due for an automatic refund at `at`: paid, not answered, its reply deadline passed, no refund under
 * way (refund_state: a pending refund is followed by the reconciler; one that gave up or was settled
 * waits for the admin), its next attempt due and nobody's lease on it.
 */
function isDue(eb: ExpressionBuilder<Schema, "inquiries">, at: string, policy: SilencePolicy) {
  // Under "choose", the buyer has CREDIT_CHOICE_DAYS after the deadline, unless they chose the refund.
  const choiceEnded = new Date(Date.parse(at) - env.CREDIT_CHOICE_DAYS * 24 * 60 * 60 * 1000).toISOString();
  return eb.and([
    eb("status", "=", "paid"),
    eb("answered_at", "is", null),
    eb("amount_cents", ">", 0),
    eb("refund_state", "is", null),
    eb("reply_deadline_at", "is not", null),
    eb("reply_deadline_at", "<=", at),
    eb("credited_at", "is", null),
    eb("provider", "!=", "credit"),
    eb.or([eb("fee_choice", "is", null), eb("fee_choice", "=", "refund")]),
    // A refund once tried goes on under either policy: it may have been made, so it never becomes a choice.
    ...(policy === "choose"
      ? [eb.or([eb("fee_choice", "=", "refund"), eb("reply_deadline_at", "<=", choiceEnded), refundTried(eb)])]
      : []),
    eb.or([eb("refund_next_attempt_at", "is", null), eb("refund_next_attempt_at", "<=", at)]),
    refundLeaseFree(eb, at),
  ]);
}

export function refundBackoffMs(attempts: number): number {
  return Math.min(env.REFUND_RETRY_BASE_MS * 2 ** Math.min(Math.max(attempts - 1, 0), 20), MAX_BACKOFF_MS);
}

/** One inquiry: claim, refund, record. Returns what happened, for the pass's summary and the tests' logs. */
async function refundOne(
  id: number,
  refund: RefundOneInquiry,
  policy: SilencePolicy,
): Promise<"refunded" | "failed" | "skipped"> {
  const claimedAt = now();
  // The claim: one process's conditional UPDATE changes the row; every other one sees it leased.
  const claimed = await db
    .updateTable("inquiries")
    .set((eb) => ({
      refund_lease_until: new Date(claimedAt.getTime() + LEASE_MS).toISOString(),
      refund_attempts: eb("refund_attempts", "+", 1),
    }))
    .where("id", "=", id)
    .where((eb) => isDue(eb, claimedAt.toISOString(), policy))
    .returning("refund_attempts")
    .executeTakeFirst();
  if (!claimed) return "skipped";
  const attempts = claimed.refund_attempts;
  let outcome: RefundOutcome;
  try {
    outcome = await refund(id, attempts - 1);
  } catch (error) {
    outcome = { status: "failed", message: (error as Error).message || String(error), permanent: false };
  }
  if (!isDatabaseOpen()) return "skipped";
  if (outcome.status === "refunded" || outcome.status === "already-refunded") {
    log.info({ inquiryId: id }, "inquiry refunded automatically");
    return "refunded";
  }
  if (outcome.status === "pending") {
    await db.updateTable("inquiries").set({ refund_lease_until: null }).where("id", "=", id).execute();
    log.info({ inquiryId: id, refundId: outcome.refundId }, "automatic refund pending at the provider");
    return "skipped";
  }
  const message = outcome.message.slice(0, 500);
  const retryAt = new Date(now().getTime() + refundBackoffMs(attempts)).toISOString();
  await db
    .updateTable("inquiries")
    .set({ refund_last_error: message, refund_next_attempt_at: retryAt, refund_lease_until: null })
    .where("id", "=", id)
    .where("status", "=", "paid")
    .execute();
  log.error({ inquiryId: id, attempt: attempts, retryAt, error: message }, "automatic refund failed");
  return "failed";
}

/** One pass over every due inquiry. Safe to run concurrently with itself and in other processes. */
export async function runRefundPass(refund: RefundOneInquiry): Promise<{ refunded: number; failed: number }> {
  const summary = { refunded: 0, failed: 0 };
  const tried = new Set<number>();
  await offerChoices();
  await recreditSilentCreditInquiries();
  for (;;) {
    if (!isDatabaseOpen()) return summary;
    const policy = await getSilencePolicy();
    const at = nowIso();
    const rows = await db
      .selectFrom("inquiries")
      .select("id")
      .where((eb) => isDue(eb, at, policy))
      .orderBy("reply_deadline_at")
      .orderBy("id")
      .limit(BATCH_SIZE)
      .execute();
    const due = rows.filter((row) => !tried.has(row.id));
    if (due.length === 0) return summary;
    for (const { id } of due) {
      tried.add(id);
      const outcome = await refundOne(id, refund, policy);
      if (outcome === "refunded") summary.refunded += 1;
      if (outcome === "failed") summary.failed += 1;
      if (stopRequested) return summary;
    }
  }
}

/**
 * The buyer's "Refund my fee": refunded at once through the same claim, retries and idempotency. When a
 * scheduler pass claimed it a moment before, its answer is waited for (a few seconds at most), so the
 * page the buyer is sent to shows the refund.
 */
export async function refundChosenInquiry(id: number): Promise<"refunded" | "failed" | "skipped"> {
  const outcome = await refundOne(id, refundInquiry, await getSilencePolicy());
  for (let waited = 0; outcome === "skipped" && waited < CHOSEN_REFUND_WAIT_MS; waited += 100) {
    const row = await db
      .selectFrom("inquiries")
      .select(["status", "refund_lease_until"])
      .where("id", "=", id)
      .executeTakeFirst();
    if (!row || row.status !== "paid" || row.refund_lease_until === null) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return outcome;
}

/**
 * The admin's Refund: the inquiry's lease is claimed first, as the scheduler claims it, so that the buyer's
 * "Take a credit instead" (which needs the inquiry unleased) cannot land while the refund is at the
 * provider, and a credit already taken keeps the claim from being made. The lease is let go after. The
 * claim counts the attempt too (refund_attempts, see refundTried), as the scheduler's does: if the process
 * dies during the provider's call, the fee (perhaps refunded) is never offered or taken as a credit once the
 * lease runs out; the scheduler retries it past the deadline, or the admin's next Refund, with the same
 * idempotency key. A credit-paid inquiry is not claimed: it is never refunded, and a count would keep it
 * from its new credit.
 */
export async function refundByAdmin(id: number): Promise<RefundOutcome> {
  const at = now();
  const claimed = await db
    .updateTable("inquiries")
    .set((eb) => ({
      refund_lease_until: new Date(at.getTime() + LEASE_MS).toISOString(),
      refund_attempts: eb("refund_attempts", "+", 1),
    }))
    .where("id", "=", id)
    .where("status", "=", "paid")
    .where("provider", "!=", "credit")
    .where("credited_at", "is", null)
    .where((eb) => refundLeaseFree(eb, at.toISOString()))
    .executeTakeFirst();
  // Not claimed: it is not refundable (refundInquiry says why, without a refund), or a refund holds it
  // already (the scheduler, another click): the same idempotency key makes this call that same refund.
  if (claimed.numUpdatedRows !== 1n) return refundInquiry(id);
  try {
    return await refundInquiry(id);
  } finally {
    if (isDatabaseOpen())
      await db.updateTable("inquiries").set({ refund_lease_until: null }).where("id", "=", id).execute();
  }
}

let running = false;
let stopRequested = false;
let timer: NodeJS.Timeout | undefined;
let pass: Promise<unknown> | null = null;

function tick(refund: RefundOneInquiry): void {
  if (!running || pass) return;
  pass = runRefundPass(refund)
    .catch((error) => log.error({ error: (error as Error).message }, "refund pass failed"))
    .finally(() => {
      pass = null;
      if (!running) return;
      timer = setTimeout(() => tick(refund), env.REFUND_SCHEDULER_INTERVAL_MS);
      timer.unref();
    });
}

/** The background task (registered in startup.server.ts), given the function that refunds one inquiry. */
export function createAutoRefundTask(refund: RefundOneInquiry) {
  return {
    start() {
      running = true;
      stopRequested = false;
      tick(refund);
    },
    async stop() {
      running = false;
      stopRequested = true;
      clearTimeout(timer);
      await pass?.catch(() => {});
    },
  };
}

export const autoRefundTask = createAutoRefundTask(refundInquiry);
