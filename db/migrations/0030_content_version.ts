import { sql, type Kysely } from "kysely";

// Public pages are cached in memory (app/server/http/page-cache.server.ts). A cached page is valid only while
// the version it was rendered at is current, and every write to a table that a public page reads bumps
// the version here, whichever process or code path made it (the app, scripts, a second server).
// A table that a public page starts to read needs the same three triggers.
const WATCHED_TABLES = ["domains", "settings"] as const;

export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE TABLE content_version (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)`.execute(db);
  await sql`INSERT INTO content_version (id, version) VALUES (1, 1)`.execute(db);
  for (const table of WATCHED_TABLES) {
    for (const event of ["INSERT", "UPDATE", "DELETE"]) {
      await sql
        .raw(
          `CREATE TRIGGER ${table}_${event.toLowerCase()}_bumps_content_version AFTER ${event} ON ${table}
           BEGIN UPDATE content_version SET version = version + 1 WHERE id = 1; END`,
        )
        .execute(db);
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of WATCHED_TABLES) {
    for (const event of ["insert", "update", "delete"]) {
      await sql.raw(`DROP TRIGGER IF EXISTS ${table}_${event}_bumps_content_version`).execute(db);
    }
  }
  await db.schema.dropTable("content_version").execute();
}
