// The payment reconciler, a background task (startup.server.ts) that runs every RECONCILE_INTERVAL_MS:
//   - asks the provider about every payment and checkout made for an inquiry (payment_refs), first
//     PAYMENT_RECONCILE_AFTER_MS after it was created, then with backoff (doubling, at most an hour) for
//     up to a day, and fulfils what succeeded through fulfilPayment: a buyer who closed the tab is
//     recorded without a webhook, a late duplicate or a mismatch is refunded (stray-payments.server.ts);
//   - retries the refunds of stray payments and follows refunds still pending at the provider;
//   - expires pending inquiries after 24 hours (their payments are canceled first; a payment already
//     made is fulfilled instead) and deletes expired ones after 30 days.
// Every step is a conditional UPDATE on SQLite state, so two processes or a restart do no harm.
import type { Selectable } from "kysely";
import type { Inquiry, PaymentRefsTable } from "../../../db/schema";

type PaymentRef = Selectable<PaymentRefsTable>;
import { now, nowIso } from "../runtime/clock.server";
import { lazyStatement, sqlite } from "../db/database.server";
import { env } from "../runtime/env.server";
import { refundInquiry } from "../refunds/refunds.server";
import { fulfilPayment, type FulfilResult } from "./fulfil.server";
import { getPaymentProvider, type ProviderName } from "./index.server";
import { runStrayRefundPass } from "./stray-payments.server";

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
export const PENDING_INQUIRY_TTL_MS = DAY_MS;
export const EXPIRED_INQUIRY_PURGE_MS = 30 * DAY_MS;
const BATCH_SIZE = 50;

type RefRow = PaymentRef & { provider: string };

const selectDueRefs = lazyStatement<[{ now: string; limit: number }], RefRow>(
  `SELECT r.*, i.provider FROM payment_refs r JOIN inquiries i ON i.id = r.inquiry_id
   WHERE r.done_at IS NULL AND r.next_check_at <= @now ORDER BY r.next_check_at LIMIT @limit`,
);
const rescheduleRef = lazyStatement<[{ refId: string; nextAt: string; checks: number }]>(
  "UPDATE payment_refs SET checks = @checks, next_check_at = @nextAt WHERE ref_id = @refId AND done_at IS NULL",
);
const finishRef = lazyStatement<[string, string]>("UPDATE payment_refs SET done_at = ? WHERE ref_id = ? AND done_at IS NULL");
const selectRefsOf = lazyStatement<[number], PaymentRef>("SELECT * FROM payment_refs WHERE inquiry_id = ?");
const selectPendingRefunds = lazyStatement<[], { id: number }>(
  "SELECT id FROM inquiries WHERE refund_state = 'pending' AND status = 'paid' LIMIT 100",
);
const selectStale = lazyStatement<[{ before: string; limit: number }], Inquiry>(
  "SELECT * FROM inquiries WHERE status = 'pending' AND created_at <= @before ORDER BY created_at LIMIT @limit",
);
const markExpired = lazyStatement<[string, number]>(
  "UPDATE inquiries SET status = 'failed', expired_at = ? WHERE id = ? AND status = 'pending'",
);
const purgeRefs = lazyStatement<[string]>(
  `DELETE FROM payment_refs WHERE inquiry_id IN (SELECT id FROM inquiries WHERE status = 'failed' AND expired_at <= ?)`,
);
const unlinkStrays = lazyStatement<[string]>(
  `UPDATE stray_payments SET inquiry_id = NULL WHERE inquiry_id IN (SELECT id FROM inquiries WHERE status = 'failed' AND expired_at <= ?)`,
);
const purgeExpired = lazyStatement<[string]>("DELETE FROM inquiries WHERE status = 'failed' AND expired_at <= ?");

function log(msg: string, fields: Record<string, unknown>, level: "log" | "error" = "log"): void {
  console[level](JSON.stringify({ msg, ...fields }));
}

function isFinal(result: FulfilResult): boolean {
  if (result.ok) return true;
  if (result.reason !== "not_succeeded") return true;
  const status = result.state?.status;
  return status === "canceled" || status === "failed" || status === "refunded";
}

async function checkRef(ref: Pick<PaymentRef, "ref_id" | "kind">, provider: string): Promise<FulfilResult> {
  const reference = ref.kind === "payment" ? { paymentId: ref.ref_id } : { checkoutId: ref.ref_id };
  return fulfilPayment(getPaymentProvider(provider as ProviderName), reference);
}

/** One due payment or checkout: fulfil it if it succeeded, else ask again later (for up to a day). */
async function reconcileRef(ref: RefRow): Promise<void> {
  let final = false;
  try {
    const result = await checkRef(ref, ref.provider);
    final = isFinal(result);
    if (result.ok && result.newlyPaid) log("reconciler recorded a payment", { inquiryId: result.inquiry.id, ref: ref.ref_id });
  } catch (error) {
    log("reconcile failed", { ref: ref.ref_id, error: (error as Error).message }, "error");
  }
  if (!sqlite.open) return;
  const at = now();
  if (final || at.getTime() - Date.parse(ref.created_at) > DAY_MS) {
    finishRef().run(at.toISOString(), ref.ref_id);
    return;
  }
  const checks = ref.checks + 1;
  const delay = Math.min(Math.max(env.PAYMENT_RECONCILE_AFTER_MS, 1000) * 2 ** Math.min(checks, 20), HOUR_MS);
  rescheduleRef().run({ refId: ref.ref_id, checks, nextAt: new Date(at.getTime() + delay).toISOString() });
}

/**
 * A pending inquiry past 24 hours: a payment already made is fulfilled; otherwise every payment is
 * canceled and the inquiry expires. One still processing keeps it pending until it settles.
 */
async function expireInquiry(inquiry: Inquiry): Promise<"expired" | "paid" | "kept"> {
  const provider = getPaymentProvider(inquiry.provider as ProviderName);
  // Every payment ever made for it, even one the reconciler stopped asking about.
  for (const ref of selectRefsOf().all(inquiry.id)) {
    const result = await checkRef(ref, inquiry.provider);
    if (result.ok) {
      finishRef().run(nowIso(), ref.ref_id);
      return "paid";
    }
    const canceled =
      ref.kind === "payment" ? await provider.cancelPayment(ref.ref_id) : (await provider.expireCheckout(ref.ref_id), true);
    if (!canceled) return "kept";
    if (ref.kind === "payment") finishRef().run(nowIso(), ref.ref_id);
  }
  return markExpired().run(nowIso(), inquiry.id).changes === 1 ? "expired" : "kept";
}

async function expireStaleInquiries(): Promise<void> {
  const before = new Date(now().getTime() - PENDING_INQUIRY_TTL_MS).toISOString();
  for (const inquiry of selectStale().all({ before, limit: BATCH_SIZE })) {
    if (!sqlite.open) return;
    try {
      const outcome = await expireInquiry(inquiry);
      if (outcome === "expired") log("pending inquiry expired", { inquiryId: inquiry.id });
    } catch (error) {
      log("expiry failed", { inquiryId: inquiry.id, error: (error as Error).message }, "error");
    }
  }
}

function purgeExpiredInquiries(): number {
  const before = new Date(now().getTime() - EXPIRED_INQUIRY_PURGE_MS).toISOString();
  return sqlite.transaction(() => {
    purgeRefs().run(before);
    unlinkStrays().run(before);
    return purgeExpired().run(before).changes;
  })();
}

/** One pass of everything above. Safe to run concurrently with itself and in other processes. */
export async function runReconcilePass(): Promise<void> {
  const tried = new Set<string>();
  for (;;) {
    if (!sqlite.open || stopRequested) return;
    const due = selectDueRefs().all({ now: nowIso(), limit: BATCH_SIZE }).filter((ref) => !tried.has(ref.ref_id));
    if (due.length === 0) break;
    for (const ref of due) {
      tried.add(ref.ref_id);
      await reconcileRef(ref);
      if (stopRequested) return;
    }
  }
  await runStrayRefundPass();
  for (const { id } of selectPendingRefunds().all()) {
    if (!sqlite.open || stopRequested) return;
    await refundInquiry(id);
  }
  await expireStaleInquiries();
  if (sqlite.open) {
    const purged = purgeExpiredInquiries();
    if (purged > 0) log("expired inquiries deleted", { count: purged });
  }
}

let running = false;
let stopRequested = false;
let timer: NodeJS.Timeout | undefined;
let pass: Promise<unknown> | null = null;

function tick(): void {
  if (!running || pass) return;
  pass = runReconcilePass()
    .catch((error) => log("reconcile pass failed", { error: (error as Error).message }, "error"))
    .finally(() => {
      pass = null;
      if (!running) return;
      timer = setTimeout(tick, env.RECONCILE_INTERVAL_MS);
      timer.unref();
    });
}

export const reconcilerTask = {
  start() {
    running = true;
    stopRequested = false;
    tick();
  },
  async stop() {
    running = false;
    stopRequested = true;
    clearTimeout(timer);
    await pass?.catch(() => {});
  },
};
