import { nowIso } from "../runtime/clock.server";
import { sql, type ExpressionBuilder } from "kysely";
import type { Database as Schema } from "../../../db/schema";
import { isDatabaseOpen } from "../db/database.server";
import { inTransaction, type Executor } from "../db/dialect.server";
import type { CachedRequest } from "../http/request-context.server";
import { log } from "../runtime/log.server";
import { isCrawler } from "../http/crawlers.server";

// Page views are counted in memory and written in one transaction every few seconds, so a view
// costs no database write on the request path. Nothing about the visitor is kept: only a daily count.
const FLUSH_INTERVAL_MS = 2_000;
const pending = new Map<string, PendingViews>();

/**
 * Counts one view of a domain page (the /domain page or a host lander). Only a real visitor's GET
 * counts: HEAD requests, prefetches and bots do not. Returns whether the view was counted.
 */
export function recordDomainView(domainId: number, request: CachedRequest): boolean {
  if (!isCountedView(request)) return false;
  const day = nowIso().slice(0, 10);
  const key = `${domainId}:${day}`;
  const entry = pending.get(key);
  if (entry) entry.views += 1;
  else pending.set(key, { domainId, day, views: 1 });
  return true;
}

function isCountedView(request: CachedRequest): boolean {
  if (request.method !== "GET") return false;
  const headers = request.headers;
  const purpose = `${headers.get("sec-purpose") ?? ""} ${headers.get("purpose") ?? ""} ${headers.get("x-purpose") ?? ""} ${headers.get("x-moz") ?? ""}`;
  if (/prefetch|prerender|preview/i.test(purpose)) return false;
  const userAgent = headers.get("user-agent");
  return Boolean(userAgent) && !isCrawler(userAgent);
}

type PendingViews = { domainId: number; day: string; views: number };

/** Adds to the stored counts (a domain deleted meanwhile is skipped: its counts went with it). */
async function addViews(trx: Executor, { domainId, day, views }: PendingViews): Promise<void> {
  const domainExists = (eb: ExpressionBuilder<Schema, never>) =>
    eb.exists(eb.selectFrom("domains").select(sql.lit(1).as("one")).where("id", "=", domainId));
  // INSERT ... SELECT ... WHERE: SQLite needs the WHERE to read ON CONFLICT as the upsert's.
  await trx
    .insertInto("domain_daily_views")
    .columns(["domain_id", "day", "views"])
    .expression(
      trx
        .selectNoFrom([
          sql<number>`${domainId}`.as("domain_id"),
          sql<string>`${day}`.as("day"),
          sql<number>`${views}`.as("views"),
        ])
        .where(domainExists),
    )
    .onConflict((oc) =>
      oc.columns(["domain_id", "day"]).doUpdateSet({ views: sql<number>`domain_daily_views.views + excluded.views` }),
    )
    .execute();
  await trx
    .insertInto("domain_view_totals")
    .columns(["domain_id", "views"])
    .expression(
      trx
        .selectNoFrom([sql<number>`${domainId}`.as("domain_id"), sql<number>`${views}`.as("views")])
        .where(domainExists),
    )
    .onConflict((oc) =>
      oc.column("domain_id").doUpdateSet({ views: sql<number>`domain_view_totals.views + excluded.views` }),
    )
    .execute();
}

let flushing: Promise<void> = Promise.resolve();

/** Writes the buffered counts in one transaction. Runs on a timer and at shutdown; flushes run one at a time. */
export function flushDomainViews(): Promise<void> {
  flushing = flushing.then(flushPending);
  return flushing;
}

async function flushPending(): Promise<void> {
  if (pending.size === 0 || !isDatabaseOpen()) return;
  // The same order in every process, so two flushes on PostgreSQL lock rows in turn instead of deadlocking.
  const batch = [...pending.values()].sort((a, b) => a.domainId - b.domainId || a.day.localeCompare(b.day));
  pending.clear();
  try {
    await inTransaction(async (trx) => {
      for (const entry of batch) await addViews(trx, entry);
    });
  } catch (error) {
    // Keep the counts for the next attempt (e.g. the database was busy).
    for (const entry of batch) {
      const key = `${entry.domainId}:${entry.day}`;
      const current = pending.get(key);
      if (current) current.views += entry.views;
      else pending.set(key, entry);
    }
    log.error({ error: (error as Error).message }, "view counts not written yet");
  }
}

let timer: ReturnType<typeof setInterval> | undefined;

/** Registered by startup.server.ts (a direct import both ways would be a module cycle). */
export const domainViewFlushTask = {
  start: () => {
    timer = setInterval(() => void flushDomainViews(), FLUSH_INTERVAL_MS);
    timer.unref();
  },
  stop: async () => {
    if (timer) clearInterval(timer);
    timer = undefined;
    await flushDomainViews();
  },
};
