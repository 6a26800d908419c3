// Brings the database at DATABASE_URL to the latest schema: `npm run migrate`. The app migrates at start
// too; this runs it ahead of a deploy (one step before several processes start on a new version) or on
// its own. Safe to run while other processes start or migrate: they take turns (a migration lock).
import { closeDatabase, migrateToLatest } from "../app/server/db/database.server";
import { env } from "../app/server/runtime/env.server";

try {
  const applied = await migrateToLatest();
  const where = env.engine === "sqlite" ? env.databasePath : "PostgreSQL";
  console.log(
    applied.length === 0
      ? `${where} is up to date`
      : `Applied ${applied.length} migrations to ${where}: ${applied.join(", ")}`,
  );
} catch (error) {
  console.error(`Migration failed: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await closeDatabase();
}
