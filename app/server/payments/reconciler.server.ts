// The payment reconciler, a background task (startup.server.ts) that runs every RECONCILE_INTERVAL_MS:
//   - asks the provider about every payment and checkout made for an inquiry (payment_refs), first
//     PAYMENT_RECONCILE_AFTER_MS after it was created, then with backoff (doubling, at most an hour) for
//     up to a day, and fulfils what succeeded through fulfilPayment: a buyer who closed the tab is
//     recorded without a webhook, a late duplicate or a mismatch is refunded (stray-payments.server.ts);
//   - retries the refunds of stray payments and follows refunds still pending at the provider;
//   - expires pending inquiries after 24 hours (their payments are canceled first; a payment already
//     made is fulfilled instead) and deletes expired ones after 30 days.
// Every step claims its row with a conditional UPDATE (a lease), so two processes or a restart do no harm.
import type { Selectable } from "kysely";
import type { Inquiry, PaymentRefsTable } from "../../../db/schema";
import { db, isDatabaseOpen } from "../db/database.server";
import { inTransaction } from "../db/dialect.server";
import { now, nowIso } from "../runtime/clock.server";
import { env } from "../runtime/env.server";
import { log } from "../runtime/log.server";
import { refundInquiry, refundLeaseFree } from "../refunds/refunds.server";
import { fulfilPayment, type FulfilResult } from "./fulfil.server";
import { getPaymentProvider, type ProviderName } from "./index.server";
import { runStrayRefundPass } from "./stray-payments.server";
import { finishStaleRefunds } from "../sale/admin-deals.server";
import { reconcileDealCheckouts } from "../sale/deal-payment.server";

type PaymentRef = Selectable<PaymentRefsTable>;

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
export const PENDING_INQUIRY_TTL_MS = DAY_MS;
export const EXPIRED_INQUIRY_PURGE_MS = 30 * DAY_MS;
const BATCH_SIZE = 50;
const LEASE_MS = 5 * 60 * 1000;

type RefRow = PaymentRef & { provider: string };

/**
 * Claims a due payment ref for this process: its next check moves past the lease, so another process
 * (or pass) that read it as due changes nothing. A process that dies while asking leaves the ref to be
 * asked again when the lease ends; one that finishes reschedules or finishes it.
 */
async function claimRef(refId: string, at: Date): Promise<boolean> {
  const claimed = await db
    .updateTable("payment_refs")
    .set({ next_check_at: new Date(at.getTime() + LEASE_MS).toISOString() })
    .where("ref_id", "=", refId)
    .where("done_at", "is", null)
    .where("next_check_at", "<=", at.toISOString())
    .executeTakeFirst();
  return claimed.numUpdatedRows === 1n;
}

async function finishRef(refId: string): Promise<void> {
  await db
    .updateTable("payment_refs")
    .set({ done_at: nowIso() })
    .where("ref_id", "=", refId)
    .where("done_at", "is", null)
    .execute();
}

/**
 * Claims an inquiry for work other than its automatic refund (expiry, a pending refund to follow) with
 * the same lease the refund scheduler takes (refund_lease_until), so one process at a time works on it.
 * Returns the lease to release, or null when another process holds it or the inquiry no longer matches.
 */
async function claimInquiry(id: number, status: "pending" | "paid", at: Date): Promise<string | null> {
  const lease = new Date(at.getTime() + LEASE_MS).toISOString();
  let claim = db
    .updateTable("inquiries")
    .set({ refund_lease_until: lease })
    .where("id", "=", id)
    .where("status", "=", status)
    .where((eb) => refundLeaseFree(eb, at.toISOString()));
  if (status === "paid") claim = claim.where("refund_state", "=", "pending");
  const claimed = await claim.executeTakeFirst();
  return claimed.numUpdatedRows === 1n ? lease : null;
}

/** Ends this process's lease (unless something else already replaced it: a refund recorded clears it). */
async function releaseInquiry(id: number, lease: string): Promise<void> {
  if (!isDatabaseOpen()) return;
  await db
    .updateTable("inquiries")
    .set({ refund_lease_until: null })
    .where("id", "=", id)
    .where("refund_lease_until", "=", lease)
    .execute();
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
  if (!(await claimRef(ref.ref_id, now()))) return;
  let final = false;
  try {
    const result = await checkRef(ref, ref.provider);
    final = isFinal(result);
    if (result.ok && result.newlyPaid)
      log.info({ inquiryId: result.inquiry.id, ref: ref.ref_id }, "reconciler recorded a payment");
  } catch (error) {
    log.error({ ref: ref.ref_id, error: (error as Error).message }, "reconcile failed");
  }
  if (!isDatabaseOpen()) return;
  const at = now();
  if (final || at.getTime() - Date.parse(ref.created_at) > DAY_MS) {
    await finishRef(ref.ref_id);
    return;
  }
  const checks = ref.checks + 1;
  const delay = Math.min(Math.max(env.PAYMENT_RECONCILE_AFTER_MS, 1000) * 2 ** Math.min(checks, 20), HOUR_MS);
  await db
    .updateTable("payment_refs")
    .set({ checks, next_check_at: new Date(at.getTime() + delay).toISOString() })
    .where("ref_id", "=", ref.ref_id)
    .where("done_at", "is", null)
    .execute();
}

/**
 * A pending inquiry past 24 hours: a payment already made is fulfilled; otherwise every payment is
 * canceled and the inquiry expires. One still processing keeps it pending until it settles.
 */
async function expireInquiry(inquiry: Inquiry): Promise<"expired" | "paid" | "kept"> {
  const provider = getPaymentProvider(inquiry.provider as ProviderName);
  // Every payment ever made for it, even one the reconciler stopped asking about.
  const refs = await db.selectFrom("payment_refs").selectAll().where("inquiry_id", "=", inquiry.id).execute();
  for (const ref of refs) {
    const result = await checkRef(ref, inquiry.provider);
    if (result.ok) {
      await finishRef(ref.ref_id);
      return "paid";
    }
    const canceled =
      ref.kind === "payment"
        ? await provider.cancelPayment(ref.ref_id)
        : (await provider.expireCheckout(ref.ref_id), true);
    if (!canceled) return "kept";
    if (ref.kind === "payment") await finishRef(ref.ref_id);
  }
  const expired = await db
    .updateTable("inquiries")
    .set({ status: "failed", expired_at: nowIso() })
    .where("id", "=", inquiry.id)
    .where("status", "=", "pending")
    .executeTakeFirst();
  return expired.numUpdatedRows === 1n ? "expired" : "kept";
}

async function expireStaleInquiries(): Promise<void> {
  const before = new Date(now().getTime() - PENDING_INQUIRY_TTL_MS).toISOString();
  const stale = await db
    .selectFrom("inquiries")
    .selectAll()
    .where("status", "=", "pending")
    .where("created_at", "<=", before)
    .orderBy("created_at")
    .limit(BATCH_SIZE)
    .execute();
  for (const inquiry of stale) {
    if (!isDatabaseOpen()) return;
    const lease = await claimInquiry(inquiry.id, "pending", now());
    if (!lease) continue;
    try {
      const outcome = await expireInquiry(inquiry);
      if (outcome === "expired") log.info({ inquiryId: inquiry.id }, "pending inquiry expired");
    } catch (error) {
      log.error({ inquiryId: inquiry.id, error: (error as Error).message }, "expiry failed");
    } finally {
      await releaseInquiry(inquiry.id, lease);
    }
  }
}

async function purgeExpiredInquiries(): Promise<number> {
  const before = new Date(now().getTime() - EXPIRED_INQUIRY_PURGE_MS).toISOString();
  return inTransaction(async (trx) => {
    const purgeable = trx
      .selectFrom("inquiries")
      .select("id")
      .where("status", "=", "failed")
      .where("expired_at", "<=", before);
    await trx.deleteFrom("payment_refs").where("inquiry_id", "in", purgeable).execute();
    await trx.updateTable("stray_payments").set({ inquiry_id: null }).where("inquiry_id", "in", purgeable).execute();
    const purged = await trx
      .deleteFrom("inquiries")
      .where("status", "=", "failed")
      .where("expired_at", "<=", before)
      .executeTakeFirst();
    return Number(purged.numDeletedRows);
  });
}

/** Asks the provider about every refund still pending (refunds.server.ts records the answer). */
async function followPendingRefunds(): Promise<void> {
  const at = nowIso();
  const pending = await db
    .selectFrom("inquiries")
    .select("id")
    .where("refund_state", "=", "pending")
    .where("status", "=", "paid")
    .where((eb) => refundLeaseFree(eb, at))
    .limit(100)
    .execute();
  for (const { id } of pending) {
    if (!isDatabaseOpen() || stopRequested) return;
    const lease = await claimInquiry(id, "paid", now());
    if (!lease) continue;
    try {
      await refundInquiry(id);
    } finally {
      await releaseInquiry(id, lease);
    }
  }
}

/** One pass of everything above. Safe to run concurrently with itself and in other processes. */
export async function runReconcilePass(): Promise<void> {
  const tried = new Set<string>();
  for (;;) {
    if (!isDatabaseOpen() || stopRequested) return;
    const rows: RefRow[] = await db
      .selectFrom("payment_refs as r")
      .innerJoin("inquiries as i", "i.id", "r.inquiry_id")
      .selectAll("r")
      .select("i.provider")
      .where("r.done_at", "is", null)
      .where("r.next_check_at", "<=", nowIso())
      .orderBy("r.next_check_at")
      .limit(BATCH_SIZE)
      .execute();
    const due = rows.filter((ref) => !tried.has(ref.ref_id));
    if (due.length === 0) break;
    for (const ref of due) {
      tried.add(ref.ref_id);
      await reconcileRef(ref);
      if (stopRequested) return;
    }
  }
  await reconcileDealCheckouts((name) => getPaymentProvider(name as ProviderName));
  await finishStaleRefunds();
  await runStrayRefundPass();
  await followPendingRefunds();
  await expireStaleInquiries();
  if (isDatabaseOpen()) {
    const purged = await purgeExpiredInquiries();
    if (purged > 0) log.info({ count: purged }, "expired inquiries deleted");
  }
}

let running = false;
let stopRequested = false;
let timer: NodeJS.Timeout | undefined;
let pass: Promise<unknown> | null = null;

function tick(): void {
  if (!running || pass) return;
  pass = runReconcilePass()
    .catch((error) => log.error({ error: (error as Error).message }, "reconcile pass failed"))
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
