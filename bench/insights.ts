// The portfolio insights' bench row (issue 25 item 3): portfolioInsights over 100,000 names and a year of
// views, for the whole portfolio and for one owner, on SQLite and PostgreSQL; target p95 < 100 ms.
//   In `npm run bench`: insightsRows([...databases]) after the names are seeded (scripts/bench.ts).
//   Alone: `node --import=./scripts/ts-imports.mjs bench/insights.ts [--domains=100000] [--skip-postgres]` (or `npm run bench --
//   --only=insights`) seeds its own databases.
// The activity is added set-based (INSERT ... SELECT, a few statements) to the names seed-many made:
//   views       every name on one day in each 30 (its own day of the cycle), 1-7 views, over 365 days
//               (about 1.2 million day rows, 300,000 in the last 90 days); one name in 997 is popular
//               (+50 views a day it is seen), so the most viewed list is not decided by ties; the
//               portfolio's daily totals are filled once after, with their triggers off meanwhile
//   inquiries   one name in 50 and every other popular one has a paid inquiry (2,048) on a day of the
//               year; one in 5 of those is refunded and one in 9 paid with a credit code (with its credit)
// Each engine is timed in a child process (the app's database module opens DATABASE_URL at import):
// 3 warm-up calls, then 40 one after another; server time = the function's own time, no HTTP.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { sql, type Kysely } from "kysely";
import { measureInChild, timedCalls, type Timing } from "./support";
import type { Database } from "../db/schema";
import {
  createPortfolioDailyViewsTriggers,
  dropPortfolioDailyViewsTriggers,
  fillPortfolioDailyViews,
} from "../db/migrations/0180_insights";

export const INSIGHTS_TARGET_MS = 100;
/** The owner the "one owner" row reads: seed-many gives owner{index % 500} 200 names each. */
export const BENCH_OWNER = " Owner7@Example.test ";

const root = path.resolve(import.meta.dirname, "..");
const option = (name: string, fallback: number) =>
  Number(process.argv.find((arg) => arg.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);

/**
 * Rows for the bench's server-time table: [label, timing] for the whole portfolio and one owner on each
 * database (already seeded with names). Adds the year of activity first when it is not there yet.
 */
export function insightsRows(
  databases: Array<{ engine: "SQLite" | "PostgreSQL"; url: string }>,
  sessionSecret: string,
): Array<[string, Timing]> {
  const rows: Array<[string, Timing]> = [];
  for (const { engine, url } of databases) {
    const result = measureInChild<{ whole: Timing; owner: Timing }>("bench/insights.ts", url, sessionSecret);
    const suffix = engine === "PostgreSQL" ? " [PostgreSQL]" : "";
    rows.push([`insights, whole portfolio${suffix}`, result.whole], [`insights, one owner${suffix}`, result.owner]);
  }
  return rows;
}

/** A year of views, some paid, refunded and credit-paid inquiries, set-based; once per database. */
export async function seedActivity(db: Kysely<Database>, postgres: boolean, today = new Date()): Promise<void> {
  const seeded = await db.selectFrom("inquiries").select("id").where("public_id", "like", "bench-%").limit(1).execute();
  if (seeded.length > 0) return;
  const start = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()) - 364 * 86_400_000)
    .toISOString()
    .slice(0, 10);
  // The day `offset` days after the first, as "YYYY-MM-DD" text on either engine.
  const dayAfterStart = (offset: ReturnType<typeof sql>) =>
    postgres
      ? sql`to_char(${start}::date + (${offset})::int, 'YYYY-MM-DD')`
      : sql`date(${start}, '+' || (${offset}) || ' days')`;
  const cycles = sql.raw(Array.from({ length: 13 }, (_, k) => `SELECT ${k} AS k`).join(" UNION ALL "));
  const offset = sql`c.k * 30 + (d.id * 7) % 30`;
  await db.transaction().execute(async (trx) => {
    // The portfolio's daily totals once at the end, not once per inserted row.
    await dropPortfolioDailyViewsTriggers(trx);
    await sql`INSERT INTO domain_daily_views (domain_id, day, views)
      SELECT d.id, ${dayAfterStart(offset)}, 1 + (d.id * 31 + c.k * 17) % 7 + CASE WHEN d.id % 997 = 0 THEN 50 ELSE 0 END
      FROM domains d CROSS JOIN (${cycles}) c
      WHERE ${offset} < 365`.execute(trx);
    await fillPortfolioDailyViews(trx);
    await createPortfolioDailyViewsTriggers(trx);
    await sql`INSERT INTO domain_view_totals (domain_id, views)
      SELECT domain_id, sum(views) FROM domain_daily_views GROUP BY domain_id
      ON CONFLICT (domain_id) DO UPDATE SET views = excluded.views`.execute(trx);
    const paidAt = postgres
      ? sql`to_char(${start}::date + ((d.id * 13) % 365)::int, 'YYYY-MM-DD') || 'T12:00:00.000Z'`
      : sql`date(${start}, '+' || ((d.id * 13) % 365) || ' days') || 'T12:00:00.000Z'`;
    await sql`INSERT INTO inquiries (public_id, domain_id, domain_name, name, email, phone, message, offer,
        amount_cents, currency, status, provider, created_at, paid_at, refunded_at)
      SELECT 'bench-' || d.id, d.id, d.domain_name, 'Bench Buyer', 'buyer@example.test', '+1 555 0100',
        'Is it still for sale?', '', 1999, 'usd',
        CASE WHEN d.id % 250 = 0 THEN 'refunded' ELSE 'paid' END,
        CASE WHEN d.id % 450 = 0 THEN 'credit' ELSE 'test' END,
        ${paidAt}, ${paidAt}, CASE WHEN d.id % 250 = 0 THEN ${paidAt} ELSE NULL END
      FROM domains d WHERE d.id % 50 = 0 OR d.id % 1994 = 0`.execute(trx);
    await sql`INSERT INTO credits (code, source_inquiry_id, created_at, expires_at, used_at, used_by_inquiry_id)
      SELECT 'BENCH' || i.id, i.id, i.paid_at, i.paid_at, i.paid_at, i.id
      FROM inquiries i WHERE i.provider = 'credit' AND i.public_id LIKE 'bench-%'`.execute(trx);
  });
  await sql`ANALYZE`.execute(db);
}

/** In the child: seed the activity once, then time both scopes; prints one JSON line. */
async function measure(): Promise<void> {
  const { db, closeDatabase, migrateToLatest } = await import("../app/server/db/database.server");
  const { engine } = await import("../app/server/db/dialect.server");
  const { portfolioInsights } = await import("../app/server/insights/portfolio-insights.server");
  await migrateToLatest();
  const seeding = performance.now();
  await seedActivity(db, engine === "postgres");
  console.error(`insights bench [${engine}]: activity ready in ${Math.round(performance.now() - seeding)} ms`);
  const whole = await timedCalls(() => portfolioInsights({ ownerEmail: null }));
  const owner = await timedCalls(() => portfolioInsights({ ownerEmail: BENCH_OWNER }));
  await closeDatabase();
  console.log(JSON.stringify({ whole, owner }));
}

/**
 * Alone (`node --import=./scripts/ts-imports.mjs bench/insights.ts`, or `npm run bench -- --only=insights`): seeds names and activity into
 * a fresh SQLite file and an embedded PostgreSQL, times both and prints the rows with their verdicts.
 */
export async function benchInsightsAlone(): Promise<void> {
  const domains = option("domains", 100_000);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "domains-insights-bench-"));
  const secret = "bench-session-secret-0123456789";
  const seed = (url: string) =>
    execFileSync(process.execPath, ["--import=./scripts/ts-imports.mjs", "scripts/seed-many.ts", String(domains)], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: url, SESSION_SECRET: secret, LOG_LEVEL: "error" },
      stdio: "inherit",
    });
  const databases: Array<{ engine: "SQLite" | "PostgreSQL"; url: string }> = [];
  let stopPostgres: (() => Promise<void>) | null = null;
  try {
    const sqliteUrl = `file:${path.join(dataDir, "app.db")}`;
    seed(sqliteUrl);
    databases.push({ engine: "SQLite", url: sqliteUrl });
    if (!process.argv.includes("--skip-postgres")) {
      const { startPostgresServer } = await import("../tests/support/postgres");
      const server = await startPostgresServer();
      stopPostgres = server.stop;
      await server.ready;
      const pg = (await import("pg")).default;
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      await client.query("CREATE DATABASE bench");
      await client.end();
      const url = new URL(server.url);
      url.pathname = "/bench";
      seed(url.toString());
      databases.push({ engine: "PostgreSQL", url: url.toString() });
    }
    for (const [label, timing] of insightsRows(databases, secret)) {
      const verdict = timing.p95 < INSIGHTS_TARGET_MS ? "MET   " : "MISSED";
      console.log(
        `${verdict} ${label.padEnd(42)} p50 ${timing.p50.toFixed(1)} ms, p95 ${timing.p95.toFixed(1)} ms (target p95 < ${INSIGHTS_TARGET_MS} ms)`,
      );
    }
  } finally {
    if (stopPostgres) await stopPostgres();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  if (process.argv.includes("--measure")) await measure();
  else await benchInsightsAlone();
  process.exit(0);
}
