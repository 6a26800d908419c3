import { beforeAll, describe, expect, it } from "vitest";
import { TEST_ADMIN, adminCookie, insertPaidInquiry } from "../support/admin";
import { insertDomain, insertRows, uniqueDomainName } from "../support/data";
import { useAppServer } from "../support/vitest-server";
import { http, visibleText, withoutSpans } from "./admin-helpers";

// Portfolio insights (issue 25 item 3) on a portfolio with known views and paid, refunded, credit-paid and
// free inquiries on dates around month ends and the 12-month and 90-day edges: the exact numbers, for the
// whole portfolio (the /admin/insights page, served by the built server) and for one owner (the
// function, in this process, on the same database), on SQLite and PostgreSQL.

const app = useAppServer({ env: { ADMIN_EMAIL: TEST_ADMIN.email, ADMIN_PASSWORD: TEST_ADMIN.password } });
let insightsModule: typeof import("../../app/server/insights/portfolio-insights.server");
let cookie: string;

const DAY = 86_400_000;
const now = new Date();
const todayStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
const isoDay = (daysAgo: number) => new Date(todayStart - daysAgo * DAY).toISOString().slice(0, 10);
/** The first instant of the month `monthsAgo` months back (0: this month). */
const monthStart = (monthsAgo: number) => Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - monthsAgo, 1);
const month = (monthsAgo: number) => new Date(monthStart(monthsAgo)).toISOString().slice(0, 7);
const iso = (ms: number) => new Date(ms).toISOString();
// Around the month end: the last millisecond of last month and the first of this one.
const lastMonthEnd = iso(monthStart(0) - 1);
const thisMonthFirst = iso(monthStart(0));
// The 12-month edge: the first instant of the oldest month shown, and the last one before it.
const oldestShown = iso(monthStart(11));
const justBefore = iso(monthStart(11) - 1);

const ALICE = "alice@example.test";
const names: Record<string, { id: number; name: string }> = {};

function addDomain(key: string, ownerEmail: string, priceCents = 500_000) {
  const name = uniqueDomainName(`insights-${key}`);
  names[key] = { id: insertDomain(app.db(), { name, priceCents, ownerEmail }), name };
}

function addViews(key: string, views: Array<[daysAgo: number, count: number]>) {
  const id = names[key]!.id;
  insertRows(
    app.db(),
    "domain_daily_views",
    views.map(([daysAgo, count]) => ({ domain_id: id, day: isoDay(daysAgo), views: count })),
  );
  insertRows(app.db(), "domain_view_totals", [{ domain_id: id, views: views.reduce((sum, [, n]) => sum + n, 0) }]);
}

function addInquiry(key: string, paidAt: string, options: { amountCents?: number; provider?: string } = {}) {
  const { id, name } = names[key]!;
  return insertPaidInquiry(app.db(), { domainId: id, domainName: name, paidAt, ...options });
}

beforeAll(async () => {
  // The owner's spelling on their names varies: case and spaces are ignored.
  addDomain("a1", " Alice@Example.test");
  addDomain("a2", "ALICE@example.test ");
  addDomain("a3", ALICE);
  addDomain("a4", ALICE, 250_000);
  addDomain("b1", "bob@example.test");
  addDomain("b2", "bob@example.test", 120_000);
  addViews("a1", [
    [0, 5],
    [89, 3],
    [90, 100], // one day too old for the 90 days (it still counts in the all-time total)
  ]);
  addViews("a2", [[1, 4]]);
  addViews("a3", [[0, 50]]); // deleted below: its views count in the days, the name in no list
  addViews("a4", [[0, 2]]);
  addViews("b1", [
    [0, 7],
    [Math.floor((todayStart - monthStart(0)) / DAY) + 1, 2], // the last day of last month
  ]);
  addViews("b2", [[0, 1]]);
  app.db().prepare("UPDATE domains SET deleted_at = ? WHERE id = ?").run(new Date().toISOString(), names.a3!.id);

  // Paid at the last instant of last month; as if its owner stayed silent and the buyer took a credit.
  const source = addInquiry("a1", lastMonthEnd, { amountCents: 1999 });
  const refunded = addInquiry("a1", thisMonthFirst, { amountCents: 2500 });
  app
    .db()
    .prepare("UPDATE inquiries SET status = 'refunded', refunded_at = ? WHERE id = ?")
    .run(thisMonthFirst, refunded);
  addInquiry("a1", iso(Date.now()), { amountCents: 0, provider: "free" });
  const credited = addInquiry("a2", iso(monthStart(0) + 3_600_000), { amountCents: 1999, provider: "credit" });
  app
    .db()
    .prepare(
      `INSERT INTO credits (code, source_inquiry_id, created_at, expires_at, used_at, used_by_inquiry_id)
       VALUES ('INSIGHTS1', ?, ?, ?, ?, ?)`,
    )
    .run(source, oldestShown, iso(Date.now() + 300 * DAY), thisMonthFirst, credited);
  addInquiry("a2", oldestShown, { amountCents: 3000 });
  addInquiry("a2", justBefore, { amountCents: 7000 }); // before the 12 months
  addInquiry("b1", lastMonthEnd, { amountCents: 10_000 });
  // Started, never paid: counts nowhere.
  const pending = addInquiry("b1", iso(Date.now()), { amountCents: 1999 });
  app.db().prepare("UPDATE inquiries SET status = 'pending', paid_at = NULL WHERE id = ?").run(pending);

  process.env.DATABASE_URL = app.env.DATABASE_URL;
  if (app.env.SESSION_SECRET) process.env.SESSION_SECRET = app.env.SESSION_SECRET;
  if (app.env.DATA_DIR) process.env.DATA_DIR = app.env.DATA_DIR;
  insightsModule = await import("../../app/server/insights/portfolio-insights.server");
  cookie = await adminCookie(app.url);
});

/** Adds `count` at the day `daysAgo`, as the expected per-day map (two dates may be the same day). */
function expectedDays(entries: Array<[string, number]>): Map<string, number> {
  const map = new Map<string, number>();
  for (const [day, count] of entries) map.set(day, (map.get(day) ?? 0) + count);
  return map;
}

describe("portfolio insights", () => {
  it("counts the whole portfolio exactly: fees per month, days, most viewed and no-inquiry names", async () => {
    const insights = await insightsModule.portfolioInsights({ ownerEmail: null });
    expect(insights.months).toHaveLength(12);
    expect(insights.months[0]!.month).toBe(month(11));
    expect(insights.months[11]!.month).toBe(month(0));
    const byMonth = new Map(insights.months.map((entry) => [entry.month, entry]));
    expect(byMonth.get(month(1))).toEqual({
      month: month(1),
      receivedCents: 11_999,
      refundedCents: 0,
      netCents: 11_999,
      creditCount: 0,
      creditCents: 0,
    });
    expect(byMonth.get(month(0))).toEqual({
      month: month(0),
      receivedCents: 2500,
      refundedCents: 2500,
      netCents: 0,
      creditCount: 1,
      creditCents: 1999,
    });
    expect(byMonth.get(month(11))!.receivedCents).toBe(3000);
    const otherMonths = insights.months.filter((entry) => ![month(0), month(1), month(11)].includes(entry.month));
    for (const entry of otherMonths) expect(entry.receivedCents + entry.creditCount).toBe(0);
    expect(insights.credits).toBe(true);

    expect(insights.days).toHaveLength(90);
    expect(insights.days[0]!.day).toBe(isoDay(89));
    expect(insights.days[89]!.day).toBe(isoDay(0));
    const views = expectedDays([
      [isoDay(0), 5 + 50 + 2 + 7 + 1],
      [isoDay(1), 4],
      [isoDay(89), 3],
      [lastMonthEnd.slice(0, 10), 2],
    ]);
    const paid = expectedDays([
      [lastMonthEnd.slice(0, 10), 2],
      [thisMonthFirst.slice(0, 10), 2],
      [isoDay(0), 1],
    ]);
    for (const day of insights.days) {
      expect(day.views, day.day).toBe(views.get(day.day) ?? 0);
      expect(day.paid, day.day).toBe(paid.get(day.day) ?? 0);
    }

    const row = (key: string, views: number, inquiries: number) => ({ name: names[key]!.name, views, inquiries });
    const pick = (list: typeof insights.mostViewed) =>
      list.map(({ domainName, views, inquiries }) => ({ name: domainName, views, inquiries }));
    expect(pick(insights.mostViewed)).toEqual([
      row("b1", 9, 1),
      row("a1", 8, 3),
      row("a2", 4, 1),
      row("a4", 2, 0),
      row("b2", 1, 0),
    ]);
    expect(pick(insights.noInquiry)).toEqual([row("a4", 2, 0), row("b2", 1, 0)]);
    expect(insights.noInquiry[0]!.askingPriceCents).toBe(250_000);
  });

  it("scopes to one owner: their names only, the email's case and spaces ignored", async () => {
    const insights = await insightsModule.portfolioInsights({ ownerEmail: "  ALICE@example.TEST " });
    const byMonth = new Map(insights.months.map((entry) => [entry.month, entry]));
    expect(byMonth.get(month(1))!.receivedCents).toBe(1999);
    expect(byMonth.get(month(0))).toMatchObject({ receivedCents: 2500, refundedCents: 2500, creditCount: 1 });
    expect(byMonth.get(month(11))!.receivedCents).toBe(3000);
    const views = expectedDays([
      [isoDay(0), 5 + 50 + 2],
      [isoDay(1), 4],
      [isoDay(89), 3],
    ]);
    for (const day of insights.days) expect(day.views, day.day).toBe(views.get(day.day) ?? 0);
    expect(insights.days.reduce((sum, day) => sum + day.paid, 0)).toBe(4);
    expect(insights.mostViewed.map((name) => name.domainName)).toEqual([
      names.a1!.name,
      names.a2!.name,
      names.a4!.name,
    ]);
    expect(insights.noInquiry.map((name) => name.domainName)).toEqual([names.a4!.name]);
    const bob = await insightsModule.portfolioInsights({ ownerEmail: "bob@example.test" });
    expect(bob.mostViewed.map((name) => name.domainName)).toEqual([names.b1!.name, names.b2!.name]);
    expect(bob.months.find((entry) => entry.month === month(0))!.receivedCents).toBe(0);
    const nobody = await insightsModule.portfolioInsights({ ownerEmail: "nobody@example.test" });
    expect(nobody.mostViewed).toEqual([]);
    expect(nobody.days.every((day) => day.views === 0 && day.paid === 0)).toBe(true);
  });

  it("keeps the portfolio's daily totals right as views are added, changed and removed", async () => {
    const before = await insightsModule.portfolioInsights({ ownerEmail: null });
    const today = before.days[89]!.views;
    app
      .db()
      .prepare("UPDATE domain_daily_views SET views = views + 10 WHERE domain_id = ? AND day = ?")
      .run(names.b2!.id, isoDay(0));
    insertRows(app.db(), "domain_daily_views", [{ domain_id: names.b2!.id, day: isoDay(2), views: 6 }]);
    let after = await insightsModule.portfolioInsights({ ownerEmail: null });
    expect(after.days[89]!.views).toBe(today + 10);
    expect(after.days[87]!.views).toBe(6);
    app.db().prepare("DELETE FROM domain_daily_views WHERE domain_id = ? AND day = ?").run(names.b2!.id, isoDay(2));
    app
      .db()
      .prepare("UPDATE domain_daily_views SET views = views - 10 WHERE domain_id = ? AND day = ?")
      .run(names.b2!.id, isoDay(0));
    after = await insightsModule.portfolioInsights({ ownerEmail: null });
    expect(after.days).toEqual(before.days);
  });

  it("shows the numbers on /admin/insights for the admin, in tables beside the charts", async () => {
    const page = await http(app, "/admin/insights", { cookie });
    expect(page.status).toBe(200);
    const html = withoutSpans(page.body);
    const text = visibleText(page.body);
    expect(text).toContain("Fees received");
    expect(html).toMatch(
      /<svg[^>]*role="img"[^>]*aria-label="Fees received per month from [^"]+: \$149\.99 in total; 1 paid with a credit\."/,
    );
    const monthRow = (key: string) =>
      visibleText(new RegExp(`<tr[^>]*data-month-row="${key}"[\\s\\S]*?</tr>`).exec(page.body)![0]).trim();
    expect(monthRow(month(1))).toMatch(/\$119\.99 \$0 \$119\.99 0 \( \$0 \)$/);
    expect(monthRow(month(0))).toMatch(/\$25 \$25 \$0 1 \( \$19\.99 \)$/);
    expect(html.match(/data-month="/g)).toHaveLength(12);
    expect(html.match(/<rect[^>]*data-day="/g)).toHaveLength(90);
    expect(html).toContain(`data-day="${isoDay(0)}" data-views="65"`);
    expect(html).toMatch(/<caption[^>]*>Fees per month<\/caption>/);
    const mostViewed = /<table[^>]*data-insights-table="most-viewed"[\s\S]*?<\/table>/.exec(html)![0];
    expect(visibleText(mostViewed)).toMatch(new RegExp(`${names.b1!.name} 9 1 11\\.1%`));
    expect(visibleText(mostViewed)).toMatch(new RegExp(`${names.a1!.name} 8 3 37\\.5%`));
    expect(mostViewed).toContain(`href="/admin/domains/${names.b1!.id}"`);
    expect(mostViewed).not.toContain(names.a3!.name);
    const quiet = /<table[^>]*data-insights-table="no-inquiry"[\s\S]*?<\/table>/.exec(html)![0];
    expect(visibleText(quiet)).toMatch(new RegExp(`${names.a4!.name} 2 \\$2,500 ${names.b2!.name} 1 \\$1,200`));
    expect(page.body).toContain('href="/admin/insights"');
    expect(page.body).not.toMatch(/<script[^>]*src="[^"]*chart/i);
  });

  it("sends anyone but the admin to the sign-in, showing nothing", async () => {
    const visitors: Array<Record<string, string>> = [{}, { Cookie: "admin_session=forged" }];
    for (const headers of visitors) {
      const page = await http(app, "/admin/insights", { headers });
      expect(page.status).toBe(303);
      expect(page.location).toBe("/admin");
      expect(page.body).not.toContain("Fees received");
    }
    const data = await http(app, "/admin/insights.data");
    expect(data.body).not.toContain("mostViewed");
  });
});
