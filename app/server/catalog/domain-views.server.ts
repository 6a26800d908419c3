import { isbot } from "isbot";
import { nowIso } from "../runtime/clock.server";
import { lazyStatement, sqlite } from "../db/database.server";
import type { CachedRequest } from "../http/page-cache.server";

// Page views are counted in memory and written in one transaction every few seconds, so a view
// costs no database write on the request path. Nothing about the visitor is kept: only a daily count.
const FLUSH_INTERVAL_MS = 2_000;
const pending = new Map<string, { domainId: number; day: string; views: number }>();

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
  return Boolean(userAgent) && !isbot(userAgent);
}

const addDailyViews = lazyStatement<[number, string, number, number]>(
  `INSERT INTO domain_daily_views (domain_id, day, views)
   SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM domains WHERE id = ?)
   ON CONFLICT (domain_id, day) DO UPDATE SET views = views + excluded.views`,
);
const addTotalViews = lazyStatement<[number, number, number]>(
  `INSERT INTO domain_view_totals (domain_id, views)
   SELECT ?, ? WHERE EXISTS (SELECT 1 FROM domains WHERE id = ?)
   ON CONFLICT (domain_id) DO UPDATE SET views = views + excluded.views`,
);

/** Writes the buffered counts in one transaction. Runs on a timer and at shutdown. */
export function flushDomainViews(): void {
  if (pending.size === 0 || !sqlite.open) return;
  const batch = [...pending.values()];
  pending.clear();
  try {
    sqlite.transaction(() => {
      for (const { domainId, day, views } of batch) {
        addDailyViews().run(domainId, day, views, domainId);
        addTotalViews().run(domainId, views, domainId);
      }
    })();
  } catch (error) {
    // Keep the counts for the next attempt (e.g. the database was busy).
    for (const entry of batch) {
      const key = `${entry.domainId}:${entry.day}`;
      const current = pending.get(key);
      if (current) current.views += entry.views;
      else pending.set(key, entry);
    }
    console.error(`view counts not written yet: ${(error as Error).message}`);
  }
}

let timer: ReturnType<typeof setInterval> | undefined;

/** Registered by startup.server.ts (a direct import both ways would be a module cycle). */
export const domainViewFlushTask = {
  start: () => {
    timer = setInterval(flushDomainViews, FLUSH_INTERVAL_MS);
    timer.unref();
  },
  stop: () => {
    if (timer) clearInterval(timer);
    timer = undefined;
    flushDomainViews();
  },
};
