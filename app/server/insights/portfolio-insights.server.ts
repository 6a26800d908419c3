// Portfolio insights (issue 25 item 3) for the admin (the whole portfolio) and for one owner (their names):
// fees per month, views and paid inquiries per day, the most viewed names and the viewed names nobody
// asked about. Read from the tables the funnel reads (domain-funnel.server.ts):
//   domain_daily_views   one row per domain and UTC day with views (domain-views.server.ts)
//   inquiries            paid_at, status ('paid' or 'refunded' once paid), provider ('credit': paid with
//                        a credit code, 'free': no fee), amount_cents
// An owner's names are the domains whose owner email matches, case and surrounding spaces ignored, as the
// reply-time signal groups them (owner-reply-time.server.ts; index domains_owner_email). Deleted names
// keep counting in the fees and the daily series (the money and the views were real) but are left out of
// the lists of names. Every date is UTC; months and days without anything are zeros.
// Speed (100,000 names, a year of views: `node --import=./scripts/ts-imports.mjs bench/insights.ts`, target under 100 ms):
//   - an owner's names are a few hundred at most in practice: their day rows of the 90 days are read once
//     by the primary key (domain_id, day) and added up here, per day and per name;
//   - the whole portfolio's views per day come from portfolio_daily_views (kept by triggers, 0180), and
//     its two lists of names walk domain_view_totals (all-time views, index (views, domain_id)) from the
//     most viewed down, adding up the last 90 days of each name, and stop once no name further down can
//     enter a list: a name's views in 90 days are at most its views of all time (threshold walk; the view
//     flush writes both tables in one transaction). It reads a few hundred names while the most viewed of
//     all time are also the most viewed now; in the worst case (none of them is) it reads every name:
//     about 0.6 s at 100,000 names on SQLite.
//   - fees read inquiries by paid_at (index inquiries_paid, 0180).
//   - sales read the deals paid in the 12 months (status paid, transferred or completed: a refunded or
//     lost deal is no sale), by the month of paid_at; one owner's by the owner email each deal recorded
//     (index deals_owner), as their desk lists them.
import { sql, type RawBuilder } from "kysely";
import {
  INSIGHT_DAYS,
  INSIGHT_LIST_LENGTH,
  INSIGHT_MONTHS,
  type DayActivity,
  type MonthFees,
  type MonthSales,
  type NameActivity,
  type PortfolioInsights,
} from "../../lib/insights";
import { db } from "../db/database.server";
import { inList } from "../db/dialect.server";
import { now } from "../runtime/clock.server";
import { lastDays } from "../catalog/domain-funnel.server";
import { ownerEmailIs } from "../catalog/domains.server";
import { normalizeEmail } from "../admin/users.server";
import { dealOwnerIs, SOLD_DEAL_STATUSES } from "../sale/deals.server";

export interface InsightsScope {
  /** null: the whole portfolio; otherwise the names of the owner with this email (case and spaces ignored). */
  ownerEmail: string | null;
}

/** The last `count` UTC months as "YYYY-MM", oldest first, ending with the current one. */
function lastMonths(count = INSIGHT_MONTHS, today = now()): string[] {
  return Array.from({ length: count }, (_, index) =>
    new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - (count - 1 - index), 1)).toISOString().slice(0, 7),
  );
}

const PAID = sql`('paid', 'refunded')`;
/** Fees taken in money: neither a credit code nor a free inquiry. */
const IN_MONEY = sql`i.provider NOT IN ('credit', 'free')`;

type NameRow = { id: number; domain_name: string; asking_price_cents: number | string; views: number | string };

export async function portfolioInsights(scope: InsightsScope): Promise<PortfolioInsights> {
  const today = now();
  const months = lastMonths(INSIGHT_MONTHS, today);
  const days = lastDays(INSIGHT_DAYS, today);
  const firstMonth = `${months[0]!}-01`;
  const firstDay = days[0]!;
  const owner = scope.ownerEmail === null ? null : normalizeEmail(scope.ownerEmail);
  // The owner's domain ids as a subquery the planner starts from (index domains_owner_email).
  const ofOwner = (column: string): RawBuilder<unknown> =>
    owner === null ? sql`` : sql`AND ${sql.ref(column)} IN (SELECT id FROM domains WHERE ${ownerEmailIs(owner)})`;

  const [fees, credits, views, paid, sales] = await Promise.all([
    sql<{
      month: string;
      received: number | string | null;
      refunded: number | string | null;
      credit_count: number | string | null;
      credit_cents: number | string | null;
    }>`SELECT substr(i.paid_at, 1, 7) AS month,
         sum(CASE WHEN ${IN_MONEY} THEN i.amount_cents ELSE 0 END) AS received,
         sum(CASE WHEN ${IN_MONEY} AND i.status = 'refunded' THEN i.amount_cents ELSE 0 END) AS refunded,
         sum(CASE WHEN i.provider = 'credit' THEN 1 ELSE 0 END) AS credit_count,
         sum(CASE WHEN i.provider = 'credit' THEN i.amount_cents ELSE 0 END) AS credit_cents
       FROM inquiries i
       WHERE i.paid_at >= ${firstMonth} AND i.status IN ${PAID} ${ofOwner("i.domain_id")}
       GROUP BY substr(i.paid_at, 1, 7)`.execute(db),
    sql<{ one: number }>`SELECT 1 AS one WHERE EXISTS (SELECT 1 FROM credits)
       OR EXISTS (SELECT 1 FROM inquiries WHERE provider = 'credit')`.execute(db),
    owner === null ? wholePortfolioViews(firstDay) : ownerViews(firstDay, owner),
    sql<{ day: string; paid: number | string }>`SELECT substr(i.paid_at, 1, 10) AS day, count(*) AS paid
       FROM inquiries i
       WHERE i.paid_at >= ${firstDay} AND i.status IN ${PAID} ${ofOwner("i.domain_id")}
       GROUP BY substr(i.paid_at, 1, 10)`.execute(db),
    sql<{ month: string; sales: number | string; revenue: number | string | null }>`SELECT
         substr(paid_at, 1, 7) AS month, count(*) AS sales, sum(price_cents) AS revenue
       FROM deals
       WHERE paid_at >= ${firstMonth} AND status IN (${sql.join([...SOLD_DEAL_STATUSES])}) ${owner === null ? sql`` : sql`AND ${dealOwnerIs(owner)}`}
       GROUP BY substr(paid_at, 1, 7)`.execute(db),
  ]);
  const { viewsByDay, lists, asked } = views;

  const name = (row: NameRow): NameActivity => ({
    id: Number(row.id),
    domainName: row.domain_name,
    askingPriceCents: Number(row.asking_price_cents),
    views: Number(row.views),
    inquiries: asked.get(Number(row.id)) ?? 0,
  });

  const feesByMonth = new Map(fees.rows.map((row) => [row.month, row]));
  const paidByDay = new Map(paid.rows.map((row) => [row.day, Number(row.paid)]));
  const salesByMonth = new Map(sales.rows.map((row) => [row.month, row]));
  return {
    months: months.map((month): MonthFees => {
      const row = feesByMonth.get(month);
      const receivedCents = Number(row?.received ?? 0);
      const refundedCents = Number(row?.refunded ?? 0);
      return {
        month,
        receivedCents,
        refundedCents,
        netCents: receivedCents - refundedCents,
        creditCount: Number(row?.credit_count ?? 0),
        creditCents: Number(row?.credit_cents ?? 0),
      };
    }),
    sales: months.map((month): MonthSales => ({
      month,
      sales: Number(salesByMonth.get(month)?.sales ?? 0),
      revenueCents: Number(salesByMonth.get(month)?.revenue ?? 0),
    })),
    credits: credits.rows.length > 0,
    days: days.map((day): DayActivity => ({ day, views: viewsByDay.get(day) ?? 0, paid: paidByDay.get(day) ?? 0 })),
    mostViewed: lists.top.map(name),
    noInquiry: lists.quiet.map(name),
  };
}

interface Lists {
  top: NameRow[];
  quiet: NameRow[];
}

/** Most viewed first; ties: the older name (lower id) first. */
const byViews = (a: NameRow, b: NameRow) => Number(b.views) - Number(a.views) || Number(a.id) - Number(b.id);

interface Views {
  viewsByDay: Map<string, number>;
  lists: Lists;
  /** Paid inquiries per name since the first day. */
  asked: Map<number, number>;
}

/** The whole portfolio: the daily totals from portfolio_daily_views, the lists by the threshold walk. */
async function wholePortfolioViews(firstDay: string): Promise<Views> {
  const [days, asked] = await Promise.all([
    db.selectFrom("portfolio_daily_views").select(["day", "views"]).where("day", ">=", firstDay).execute(),
    askedSince(firstDay),
  ]);
  const lists = await wholePortfolioLists(firstDay, asked);
  return { viewsByDay: new Map(days.map((row) => [row.day, Number(row.views)])), lists, asked };
}

/**
 * One owner: their names' day rows of the 90 days read once (by the primary key, from the owner's names)
 * and added up here per day and per name; their live names; the names asked about.
 */
async function ownerViews(firstDay: string, owner: string): Promise<Views> {
  const [rows, live, asked] = await Promise.all([
    sql<{ domain_id: number; day: string; views: number | string }>`SELECT v.domain_id, v.day, v.views
       FROM domain_daily_views v
       WHERE v.day >= ${firstDay}
         AND v.domain_id IN (SELECT id FROM domains WHERE ${ownerEmailIs(owner)})`.execute(db),
    sql<Omit<NameRow, "views">>`SELECT id, domain_name, asking_price_cents FROM domains
       WHERE ${ownerEmailIs(owner)} AND deleted_at IS NULL`.execute(db),
    askedSince(firstDay),
  ]);
  const viewsByDay = new Map<string, number>();
  const viewsByName = new Map<number, number>();
  for (const row of rows.rows) {
    const views = Number(row.views);
    viewsByDay.set(row.day, (viewsByDay.get(row.day) ?? 0) + views);
    viewsByName.set(Number(row.domain_id), (viewsByName.get(Number(row.domain_id)) ?? 0) + views);
  }
  const seen = live.rows
    .map((row): NameRow => ({ ...row, views: viewsByName.get(Number(row.id)) ?? 0 }))
    .filter((row) => Number(row.views) > 0)
    .sort(byViews);
  return {
    viewsByDay,
    lists: {
      top: seen.slice(0, INSIGHT_LIST_LENGTH),
      quiet: seen.filter((row) => !asked.has(Number(row.id))).slice(0, INSIGHT_LIST_LENGTH),
    },
    asked,
  };
}

/** Paid inquiries since `firstDay`, per name that has any. */
async function askedSince(firstDay: string): Promise<Map<number, number>> {
  const rows = await sql<{ domain_id: number; n: number | string }>`SELECT domain_id, count(*) AS n FROM inquiries
     WHERE paid_at >= ${firstDay} AND status IN ${PAID} GROUP BY domain_id`.execute(db);
  return new Map(rows.rows.map((row) => [Number(row.domain_id), Number(row.n)]));
}

const FIRST_BATCH = 200;
const LARGEST_BATCH = 5_000;

/**
 * The whole portfolio's lists by the threshold walk: names in descending order of their views of all
 * time (domain_view_totals), a batch at a time, each batch's last 90 days added up by the primary key;
 * it stops once both lists are full and hold more views than any name not read yet can have in 90 days
 * (its all-time total, at most the last batch's smallest) - or when there are no names left.
 */
async function wholePortfolioLists(firstDay: string, asked: Map<number, number>): Promise<Lists> {
  const top: NameRow[] = [];
  const quiet: NameRow[] = [];
  const full = (list: NameRow[], bound: number) =>
    list.length >= INSIGHT_LIST_LENGTH && Number(list[INSIGHT_LIST_LENGTH - 1]!.views) > bound;
  let after: { views: number; id: number } | null = null;
  let batch = FIRST_BATCH;
  for (;;) {
    const totals: { domain_id: number; views: number | string }[] = (
      await sql<{ domain_id: number; views: number | string }>`SELECT domain_id, views FROM domain_view_totals
         WHERE views > 0 ${after ? sql`AND (views < ${after.views} OR (views = ${after.views} AND domain_id < ${after.id}))` : sql``}
         ORDER BY views DESC, domain_id DESC
         LIMIT ${batch}`.execute(db)
    ).rows;
    if (totals.length === 0) break;
    const ids = totals.map((row) => Number(row.domain_id));
    const recent = await sql<NameRow>`SELECT d.id, d.domain_name, d.asking_price_cents, r.views
       FROM (SELECT domain_id, sum(views) AS views FROM domain_daily_views
             WHERE day >= ${firstDay} AND ${inList("domain_id", ids)} GROUP BY domain_id) AS r
       JOIN domains d ON d.id = r.domain_id
       WHERE d.deleted_at IS NULL AND r.views > 0`.execute(db);
    for (const row of recent.rows) {
      top.push(row);
      if (!asked.has(Number(row.id))) quiet.push(row);
    }
    top.sort(byViews).splice(INSIGHT_LIST_LENGTH);
    quiet.sort(byViews).splice(INSIGHT_LIST_LENGTH);
    const last = totals[totals.length - 1]!;
    const bound = Number(last.views);
    if (totals.length < batch || (full(top, bound) && full(quiet, bound))) break;
    after = { views: bound, id: Number(last.domain_id) };
    batch = Math.min(LARGEST_BATCH, batch * 2);
  }
  return { top, quiet };
}
