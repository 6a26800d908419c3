// The refund scheduler: every REFUND_SCHEDULER_INTERVAL_MS it refunds each paid inquiry whose reply
// deadline passed without a confirmed reply. All of its state is in SQLite, so it survives restarts
// and any number of passes or processes refund an inquiry once:
//   - an inquiry is claimed by a conditional UPDATE that sets a lease; only one claimer sees a change;
//   - the provider call carries the refund's idempotency key, so a retry after a crash between the
//     provider's answer and our UPDATE is answered with the same refund, not a second one;
//   - the buyer's email is queued in the same transaction that records the refund (one per inquiry).
// A provider failure releases the lease and schedules a retry with exponential backoff; the attempt
// count, next attempt and last error stay on the inquiry for the admin inbox. Nothing is dropped.
import type { Inquiry } from "../../../db/schema";
import { now, nowIso } from "../runtime/clock.server";
import { lazyStatement, sqlite } from "../db/database.server";
import { env } from "../runtime/env.server";
import { refundInquiry, type RefundOutcome } from "./refunds.server";

/** Refunds one inquiry through the payment provider (refunds.server.ts records the answer and emails the buyer). */
export type RefundOneInquiry = (inquiryId: number, failedAttempts: number) => Promise<RefundOutcome>;

export { REFUND_EMAIL_KIND } from "./refunds.server";
const LEASE_MS = 5 * 60 * 1000;
const MAX_BACKOFF_MS = 6 * 60 * 60 * 1000;
const BATCH_SIZE = 25;

// refund_state: a pending refund is followed by the reconciler; one that gave up or was settled waits for the admin.
const DUE = `status = 'paid' AND answered_at IS NULL AND amount_cents > 0 AND refund_state IS NULL
  AND reply_deadline_at IS NOT NULL AND reply_deadline_at <= @now
  AND (refund_next_attempt_at IS NULL OR refund_next_attempt_at <= @now)
  AND (refund_lease_until IS NULL OR refund_lease_until <= @now)`;

const selectDue = lazyStatement<[{ now: string; limit: number }], { id: number }>(
  `SELECT id FROM inquiries WHERE ${DUE} ORDER BY reply_deadline_at, id LIMIT @limit`,
);
const claim = lazyStatement<[{ now: string; lease: string; id: number }]>(
  `UPDATE inquiries SET refund_lease_until = @lease, refund_attempts = refund_attempts + 1 WHERE id = @id AND ${DUE}`,
);
const selectInquiry = lazyStatement<[number], Inquiry>("SELECT * FROM inquiries WHERE id = ?");
const releaseLease = lazyStatement<[number]>("UPDATE inquiries SET refund_lease_until = NULL WHERE id = ?");
const recordFailure = lazyStatement<[{ error: string; retryAt: string; id: number }]>(
  `UPDATE inquiries SET refund_last_error = @error, refund_next_attempt_at = @retryAt, refund_lease_until = NULL
   WHERE id = @id AND status = 'paid'`,
);

function log(msg: string, fields: Record<string, unknown>, level: "log" | "error" = "log"): void {
  console[level](JSON.stringify({ msg, ...fields }));
}

export function refundBackoffMs(attempts: number): number {
  return Math.min(env.REFUND_RETRY_BASE_MS * 2 ** Math.min(Math.max(attempts - 1, 0), 20), MAX_BACKOFF_MS);
}

/** One inquiry: claim, refund, record. Returns what happened, for the pass's summary and the tests' logs. */
async function refundOne(id: number, refund: RefundOneInquiry): Promise<"refunded" | "failed" | "skipped"> {
  const claimedAt = now();
  const claimed = claim().run({ now: claimedAt.toISOString(), lease: new Date(claimedAt.getTime() + LEASE_MS).toISOString(), id });
  if (claimed.changes !== 1) return "skipped";
  const attempts = selectInquiry().get(id)?.refund_attempts ?? 1;
  let outcome: RefundOutcome;
  try {
    outcome = await refund(id, attempts - 1);
  } catch (error) {
    outcome = { status: "failed", message: (error as Error).message || String(error), permanent: false };
  }
  if (!sqlite.open) return "skipped";
  if (outcome.status === "refunded" || outcome.status === "already-refunded") {
    log("inquiry refunded automatically", { inquiryId: id });
    return "refunded";
  }
  if (outcome.status === "pending") {
    releaseLease().run(id);
    log("automatic refund pending at the provider", { inquiryId: id, refundId: outcome.refundId });
    return "skipped";
  }
  const message = outcome.message.slice(0, 500);
  const retryAt = new Date(now().getTime() + refundBackoffMs(attempts)).toISOString();
  recordFailure().run({ error: message, retryAt, id });
  log("automatic refund failed", { inquiryId: id, attempt: attempts, retryAt, error: message }, "error");
  return "failed";
}

/** One pass over every due inquiry. Safe to run concurrently with itself and in other processes. */
export async function runRefundPass(refund: RefundOneInquiry): Promise<{ refunded: number; failed: number }> {
  const summary = { refunded: 0, failed: 0 };
  const tried = new Set<number>();
  for (;;) {
    if (!sqlite.open) return summary;
    const due = selectDue().all({ now: nowIso(), limit: BATCH_SIZE }).filter((row) => !tried.has(row.id));
    if (due.length === 0) return summary;
    for (const { id } of due) {
      tried.add(id);
      const outcome = await refundOne(id, refund);
      if (outcome === "refunded") summary.refunded += 1;
      if (outcome === "failed") summary.failed += 1;
      if (stopRequested) return summary;
    }
  }
}

let running = false;
let stopRequested = false;
let timer: NodeJS.Timeout | undefined;
let pass: Promise<unknown> | null = null;

function tick(refund: RefundOneInquiry): void {
  if (!running || pass) return;
  pass = runRefundPass(refund)
    .catch((error) => log("refund pass failed", { error: (error as Error).message }, "error"))
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
