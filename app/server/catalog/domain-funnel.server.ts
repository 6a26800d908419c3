// Per-domain funnel for the admin: page views (domain_daily_views / domain_view_totals, written by
// domain-views.server.ts), inquiries started (rows created) and inquiries paid (status paid or refunded).
import { sql } from "kysely";
import type { Domain } from "../../../db/schema";
import { FUNNEL_DAYS, type FunnelDay, type FunnelTotals } from "../../lib/funnel";
import { now } from "../runtime/clock.server";
import { lazyStatement } from "../db/database.server";

/** Select expressions for a query over `domains`: one index lookup each, per row returned. */
export const funnelSelections = [
  sql<number>`coalesce((SELECT views FROM domain_view_totals WHERE domain_id = domains.id), 0)`.as("views"),
  sql<number>`(SELECT count(*) FROM inquiries WHERE domain_id = domains.id)`.as("inquiries_started"),
  sql<number>`(SELECT count(*) FROM inquiries WHERE domain_id = domains.id AND status IN ('paid', 'refunded'))`.as("inquiries_paid"),
] as const;

export interface DomainFunnel {
  domain: Pick<Domain, "id" | "domain_name" | "asking_price_cents" | "min_offer_cents">;
  totals: FunnelTotals;
  days: FunnelDay[];
}

const findLive = lazyStatement<[number], DomainFunnel["domain"]>(
  "SELECT id, domain_name, asking_price_cents, min_offer_cents FROM domains WHERE id = ? AND deleted_at IS NULL",
);
const totalsFor = lazyStatement<[number, number, number], FunnelTotals>(
  `SELECT coalesce((SELECT views FROM domain_view_totals WHERE domain_id = ?), 0) AS views,
          (SELECT count(*) FROM inquiries WHERE domain_id = ?) AS inquiries_started,
          (SELECT count(*) FROM inquiries WHERE domain_id = ? AND status IN ('paid', 'refunded')) AS inquiries_paid`,
);
const viewsSince = lazyStatement<[number, string], { day: string; n: number }>(
  "SELECT day, views AS n FROM domain_daily_views WHERE domain_id = ? AND day >= ?",
);
const startedSince = lazyStatement<[number, string], { day: string; n: number }>(
  "SELECT substr(created_at, 1, 10) AS day, count(*) AS n FROM inquiries WHERE domain_id = ? AND created_at >= ? GROUP BY 1",
);
const paidSince = lazyStatement<[number, string], { day: string; n: number }>(
  `SELECT substr(paid_at, 1, 10) AS day, count(*) AS n FROM inquiries
   WHERE domain_id = ? AND status IN ('paid', 'refunded') AND paid_at >= ? GROUP BY 1`,
);
const setMinOffer = lazyStatement<[number | null, number]>("UPDATE domains SET min_offer_cents = ? WHERE id = ? AND deleted_at IS NULL");

/** The last 30 UTC days, oldest first, ending today. */
export function lastDays(count = FUNNEL_DAYS, today = now()): string[] {
  const end = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  return Array.from({ length: count }, (_, index) => new Date(end - (count - 1 - index) * 86_400_000).toISOString().slice(0, 10));
}

/** A live domain's totals and its last 30 days, or null. */
export function domainFunnel(domainId: number): DomainFunnel | null {
  const domain = findLive().get(domainId);
  if (!domain) return null;
  const days = lastDays();
  const since = days[0]!;
  const byDay = (rows: { day: string; n: number }[]) => new Map(rows.map((row) => [row.day, row.n]));
  const views = byDay(viewsSince().all(domainId, since));
  const started = byDay(startedSince().all(domainId, since));
  const paid = byDay(paidSince().all(domainId, since));
  return {
    domain,
    totals: totalsFor().get(domainId, domainId, domainId)!,
    days: days.map((day) => ({ day, views: views.get(day) ?? 0, started: started.get(day) ?? 0, paid: paid.get(day) ?? 0 })),
  };
}

/** Sets or clears (null) a live domain's private minimum offer; false when there is no such domain. */
export function setMinimumOffer(domainId: number, cents: number | null): boolean {
  return setMinOffer().run(cents, domainId).changes > 0;
}

