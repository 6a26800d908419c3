// Per-domain funnel for the admin: page views (domain_daily_views / domain_view_totals, written by
// domain-views.server.ts), inquiries started (rows created) and inquiries paid (status paid or refunded).
import { sql } from "kysely";
import type { Domain } from "../../../db/schema";
import { FUNNEL_DAYS, type FunnelDay, type FunnelTotals } from "../../lib/funnel";
import { now } from "../runtime/clock.server";
import { db } from "../db/database.server";

/** Select expressions for a query over `domains`: one index lookup each, per row returned. */
export const funnelSelections = [
  sql<number>`coalesce((SELECT views FROM domain_view_totals WHERE domain_id = domains.id), 0)`.as("views"),
  sql<number>`(SELECT count(*) FROM inquiries WHERE domain_id = domains.id)`.as("inquiries_started"),
  sql<number>`(SELECT count(*) FROM inquiries WHERE domain_id = domains.id AND status IN ('paid', 'refunded'))`.as(
    "inquiries_paid",
  ),
] as const;

export interface DomainFunnel {
  domain: Pick<
    Domain,
    "id" | "domain_name" | "asking_price_cents" | "min_offer_cents" | "buy_now_cents" | "auto_accept_cents" | "pitch"
  >;
  totals: FunnelTotals;
  days: FunnelDay[];
}

/** The last 30 UTC days, oldest first, ending today. */
export function lastDays(count = FUNNEL_DAYS, today = now()): string[] {
  const end = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  return Array.from({ length: count }, (_, index) =>
    new Date(end - (count - 1 - index) * 86_400_000).toISOString().slice(0, 10),
  );
}

const PAID = ["paid", "refunded"] as const;

/** A live domain's totals and its last 30 days, or null. */
export async function domainFunnel(domainId: number): Promise<DomainFunnel | null> {
  const days = lastDays();
  const since = days[0]!;
  // The domain with its totals (the same subqueries as the admin table), then three small per-day reads.
  const row = await db
    .selectFrom("domains")
    .select([
      "id",
      "domain_name",
      "asking_price_cents",
      "min_offer_cents",
      "buy_now_cents",
      "auto_accept_cents",
      "pitch",
      ...funnelSelections,
    ])
    .where("id", "=", domainId)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  if (!row) return null;
  const [views, started, paid] = await Promise.all([
    db
      .selectFrom("domain_daily_views")
      .select(["day", "views as n"])
      .where("domain_id", "=", domainId)
      .where("day", ">=", since)
      .execute(),
    db
      .selectFrom("inquiries")
      .select([sql<string>`substr(created_at, 1, 10)`.as("day"), (eb) => eb.fn.countAll<number>().as("n")])
      .where("domain_id", "=", domainId)
      .where("created_at", ">=", since)
      .groupBy(sql`substr(created_at, 1, 10)`)
      .execute(),
    db
      .selectFrom("inquiries")
      .select([sql<string>`substr(paid_at, 1, 10)`.as("day"), (eb) => eb.fn.countAll<number>().as("n")])
      .where("domain_id", "=", domainId)
      .where("status", "in", PAID)
      .where("paid_at", ">=", since)
      .groupBy(sql`substr(paid_at, 1, 10)`)
      .execute(),
  ]);
  const byDay = (rows: { day: string; n: number }[]) => new Map(rows.map((each) => [each.day, Number(each.n)]));
  const viewsByDay = byDay(views);
  const startedByDay = byDay(started);
  const paidByDay = byDay(paid);
  const { views: totalViews, inquiries_started, inquiries_paid, ...domain } = row;
  return {
    domain,
    totals: {
      views: Number(totalViews),
      inquiries_started: Number(inquiries_started),
      inquiries_paid: Number(inquiries_paid),
    },
    days: days.map((day) => ({
      day,
      views: viewsByDay.get(day) ?? 0,
      started: startedByDay.get(day) ?? 0,
      paid: paidByDay.get(day) ?? 0,
    })),
  };
}

/**
 * Sets or clears (null) a live domain's private minimum offer, unless it would be above the name's buy now
 * price (checked in the update itself, so a buy now price saved meanwhile is never undercut).
 */
export async function setMinimumOffer(
  domainId: number,
  cents: number | null,
): Promise<"saved" | "not-found" | { aboveBuyNowCents: number }> {
  const result = await db
    .updateTable("domains")
    .set({ min_offer_cents: cents })
    .where("id", "=", domainId)
    .where("deleted_at", "is", null)
    .$if(cents !== null, (query) =>
      query.where((eb) => eb.or([eb("buy_now_cents", "is", null), eb("buy_now_cents", ">=", cents!)])),
    )
    .executeTakeFirst();
  if (result.numUpdatedRows > 0n) return "saved";
  const row = await db
    .selectFrom("domains")
    .select("buy_now_cents")
    .where("id", "=", domainId)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  if (!row) return "not-found";
  return row.buy_now_cents === null
    ? setMinimumOffer(domainId, cents)
    : { aboveBuyNowCents: Number(row.buy_now_cents) };
}
