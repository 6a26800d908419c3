// Runs db/migrations on a database of either engine, the app's at start (database.server.ts's
// migrateToLatest) or one a script opened itself (scripts/migrate-to-postgres.ts). Safe when several
// processes start at once: on PostgreSQL Kysely holds an advisory lock and migrates in one transaction,
// so the others wait and then find nothing left to do; on SQLite the migration's write transaction does the same.
import type { Kysely } from "kysely";
import { Migrator } from "kysely/migration";
import { migrations } from "../../../db/migrations/index";
import { log } from "../runtime/log.server";

/** Applies the migrations the database has not run yet; returns their names (empty when it was up to date). */
export async function runMigrations(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    // Features land in parallel with their own number ranges; an older-numbered one may arrive later.
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  for (const result of results ?? []) {
    if (result.status === "Error")
      log.error({ migration: result.migrationName }, `migration ${result.migrationName} failed`);
  }
  if (error) throw error;
  return (results ?? []).filter((result) => result.status === "Success").map((result) => result.migrationName);
}

/** Every migration's name, in the order they run. */
export const migrationNames: string[] = Object.keys(migrations).sort();
