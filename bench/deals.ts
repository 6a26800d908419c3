// The admin's Deals page bench row (issue 37): listDeals (the page's first 50) and owedToOwners over
// 10,000 deals, on SQLite and PostgreSQL; target p50 < 50 ms.
//   In `npm run bench`: dealsRows([...databases]) after the names are seeded (scripts/bench.ts).
//   Alone: `node --import=./scripts/ts-imports.mjs bench/deals.ts --measure` with DATABASE_URL set to a
//   database seed-many filled.
// The deals are added set-based (one INSERT ... SELECT) on the first 10,000 names: a mix of statuses,
// one in four completed, owners as seed-many made them. Each engine is timed in a child process (the
// app's database module opens DATABASE_URL at import): 3 warm-up calls, then 40 one after another.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { sql } from "kysely";
import { measureInChild, timedCalls, type Timing } from "./support";

export const DEALS_TARGET_MS = 50;
export const BENCH_DEALS = 10_000;

/** [label, timing] rows for the bench's server-time table, one per database (already seeded with names). */
export function dealsRows(
  databases: Array<{ engine: "SQLite" | "PostgreSQL"; url: string }>,
  sessionSecret: string,
): Array<[string, Timing]> {
  return databases.map(({ engine, url }) => [
    `/admin/deals, ${BENCH_DEALS} deals${engine === "PostgreSQL" ? " [PostgreSQL]" : ""}`,
    measureInChild<Timing>("bench/deals.ts", url, sessionSecret),
  ]);
}

async function measure(): Promise<void> {
  const { db, closeDatabase, migrateToLatest } = await import("../app/server/db/database.server");
  const { listDeals, owedToOwners } = await import("../app/server/sale/admin-deals.server");
  await migrateToLatest();
  const seeded = await db.selectFrom("deals").select("id").where("public_id", "like", "bench-%").limit(1).execute();
  if (seeded.length === 0) {
    const statuses = sql.raw(
      `CASE id % 8 WHEN 0 THEN 'agreed' WHEN 1 THEN 'paid' WHEN 2 THEN 'transferred' WHEN 3 THEN 'refunded' WHEN 4 THEN 'cancelled' ELSE 'completed' END`,
    );
    await sql`INSERT INTO deals (public_id, domain_id, domain_name, inquiry_id, origin, price_cents, fee_credited_cents,
                amount_due_cents, currency, buyer_name, buyer_email, owner_email, status, provider, created_at, paid_at,
                completed_at, updated_at)
              SELECT 'bench-' || id, id, domain_name, NULL, 'buy_now', asking_price_cents, 0, asking_price_cents, 'usd',
                'Bench Buyer', 'buyer' || id || '@example.test', owner_email, ${statuses}, 'test', created_at, created_at,
                created_at, created_at
              FROM domains WHERE deleted_at IS NULL ORDER BY id LIMIT ${BENCH_DEALS}`.execute(db);
    await sql`ANALYZE`.execute(db);
  }
  const timing = await timedCalls(() => Promise.all([listDeals(1), owedToOwners()]));
  await closeDatabase();
  console.log(JSON.stringify(timing));
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  if (process.argv.includes("--measure")) await measure();
  process.exit(0);
}
