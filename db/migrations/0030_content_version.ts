import { sql, type Kysely } from "kysely";
import {
  BUMP_CONTENT_VERSION_PLPGSQL,
  bigIntegerSql,
  createPostgresTrigger,
  dropPostgresTrigger,
  isPostgres,
} from "./engine";

// Public pages are cached in memory (app/server/http/page-cache.server.ts). A cached page is valid only while
// the version it was rendered at is current, and every write to a table that a public page reads bumps
// the version here, whichever process or code path made it (the app, scripts, a second server).
// A table that a public page starts to read needs the same triggers (watchContentVersion in engine.ts).
// On PostgreSQL each trigger fires once per statement that changed a row (a bulk import bumps the version
// once, not once per row) and also NOTIFYs the content_changed channel that every process LISTENs on;
// a fourth trigger per table takes the version row's lock first (see below).
const WATCHED_TABLES = ["domains", "settings"] as const;

export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE TABLE content_version (id INTEGER PRIMARY KEY CHECK (id = 1), version ${sql.raw(bigIntegerSql(db))} NOT NULL)`.execute(
    db,
  );
  await sql`INSERT INTO content_version (id, version) VALUES (1, 1)`.execute(db);
  for (const table of WATCHED_TABLES) {
    if (isPostgres(db)) {
      // Writers take the version row's lock before any row of the table, never after: otherwise two
      // transactions each changing two rows could each hold a row the other needs (a deadlock).
      await createPostgresTrigger(db, {
        name: `${table}_locks_content_version`,
        table,
        timing: "BEFORE",
        event: "INSERT OR UPDATE OR DELETE",
        forEach: "STATEMENT",
        body: "PERFORM 1 FROM content_version WHERE id = 1 FOR UPDATE;",
      });
    }
    for (const event of ["INSERT", "UPDATE", "DELETE"] as const) {
      const name = `${table}_${event.toLowerCase()}_bumps_content_version`;
      if (isPostgres(db)) {
        const changed = event === "DELETE" ? "old_rows" : "new_rows";
        await createPostgresTrigger(db, {
          name,
          table,
          event,
          forEach: "STATEMENT",
          body: `IF EXISTS (SELECT 1 FROM ${changed}) THEN ${BUMP_CONTENT_VERSION_PLPGSQL} END IF;`,
        });
        continue;
      }
      await sql
        .raw(
          `CREATE TRIGGER ${name} AFTER ${event} ON ${table}
           BEGIN UPDATE content_version SET version = version + 1 WHERE id = 1; END`,
        )
        .execute(db);
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of WATCHED_TABLES) {
    if (isPostgres(db)) await dropPostgresTrigger(db, `${table}_locks_content_version`, table);
    for (const event of ["insert", "update", "delete"]) {
      const name = `${table}_${event}_bumps_content_version`;
      if (isPostgres(db)) await dropPostgresTrigger(db, name, table);
      else await sql.raw(`DROP TRIGGER IF EXISTS ${name}`).execute(db);
    }
  }
  await db.schema.dropTable("content_version").execute();
}
