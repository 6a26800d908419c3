// Fills the database at DATABASE_URL with generated domains, for benchmarks: `npm run seed-many -- 100000`.
import { seedManyDomains } from "../db/seed-many";
import { sql } from "kysely";
import { closeDatabase, db, migrateToLatest, sqliteConnection } from "../app/server/db/database.server";
import { inTransaction } from "../app/server/db/dialect.server";

const count = Number(process.argv[2] ?? "100000");
if (!Number.isSafeInteger(count) || count < 1) {
  console.error(`Usage: npm run seed-many -- <count>, e.g. 100000 (got "${process.argv[2]}")`);
  process.exit(2);
}
await migrateToLatest();
const started = performance.now();
await inTransaction((trx) => seedManyDomains(trx, count));
console.log(`Inserted ${count.toLocaleString("en-US")} domains in ${Math.round(performance.now() - started)} ms`);
// The planner statistics (and, on PostgreSQL, the visibility map index-only scans rely on) that
// autovacuum or the app's own task (planner-stats.server.ts) gathers soon after a large import: now, so
// figures taken right after the seed are those of a settled database. On SQLite a limited analysis, as
// the app's task runs it: a full one writes sqlite_stat4, which the app drops at start.
if (sqliteConnection) await sql.raw("PRAGMA analysis_limit = 1000").execute(db);
await sql.raw(sqliteConnection ? "ANALYZE" : "VACUUM ANALYZE").execute(db);
await closeDatabase();
