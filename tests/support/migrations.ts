import Database from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect } from "kysely";
import { Migrator } from "kysely/migration";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { migrations } from "../../db/migrations/index";
import { createTestDatabase } from "./postgres";

export interface MigrationTestDatabase {
  db: Kysely<any>;
  /** The app's migrations over `db`: migrateTo the one before the migration under test, write rows, migrate on. */
  migrator: Migrator;
  close: () => Promise<void>;
}

/** An empty database on the engine of the run (TEST_DATABASE), for testing what a migration does to existing rows. */
export async function openMigrationTestDatabase(prefix: string): Promise<MigrationTestDatabase> {
  let folder: string | undefined;
  let db: Kysely<any>;
  if (process.env.TEST_DATABASE === "postgres") {
    db = new Kysely({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: await createTestDatabase() }) }),
    });
  } else {
    folder = mkdtempSync(path.join(tmpdir(), `${prefix}-`));
    db = new Kysely({ dialect: new SqliteDialect({ database: new Database(path.join(folder, "app.db")) }) });
  }
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    allowUnorderedMigrations: true,
  });
  return {
    db,
    migrator,
    close: async () => {
      await db.destroy();
      if (folder) rmSync(folder, { recursive: true, force: true });
    },
  };
}
