// Fills the database at DATABASE_URL with generated domains, for benchmarks: `npm run seed-many -- 100000`.
import { seedManyDomains } from "../db/seed-many";
import { closeDatabase, migrateToLatest } from "../app/server/db/database.server";
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
await closeDatabase();
