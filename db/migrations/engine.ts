// What a migration needs to build the same schema on SQLite and PostgreSQL. Every migration runs on both
// engines; where they differ it asks here. What a migration does on SQLite never changes (existing
// databases have run it): the SQLite side of each helper is the SQL the migrations always ran.
//   ids        SQLite `integer primary key autoincrement`, PostgreSQL `serial primary key`
//   money      SQLite's INTEGER is 64-bit; PostgreSQL's is 32-bit, so cents (prices up to $1bn) and
//              counters that may pass 2^31 are `bigint` there
//   triggers   SQLite runs a statement list; PostgreSQL runs a plpgsql function
import { PostgresAdapter, sql, type CreateTableBuilder, type Kysely } from "kysely";

export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** The table's `id` column: an auto-incrementing integer primary key (ids are never reused). */
export function idColumn(db: Kysely<any>) {
  return <T extends string, C extends string>(table: CreateTableBuilder<T, C>): CreateTableBuilder<T, C | "id"> =>
    isPostgres(db)
      ? table.addColumn("id", "serial", (c) => c.primaryKey())
      : table.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement());
}

/** A column of cents or a count that may pass 2^31: `integer` on SQLite (64-bit there), `bigint` on PostgreSQL. */
export function bigInteger(db: Kysely<any>): "integer" | "bigint" {
  return isPostgres(db) ? "bigint" : "integer";
}

/** The same type as raw SQL, for migrations written as CREATE TABLE text. */
export function bigIntegerSql(db: Kysely<any>): string {
  return isPostgres(db) ? "BIGINT" : "INTEGER";
}

export interface PostgresTrigger {
  /** The trigger's name; its function has the same name. */
  name: string;
  table: string;
  /** AFTER unless said. */
  timing?: "BEFORE" | "AFTER";
  event:
    | "INSERT"
    | "UPDATE"
    | "DELETE"
    | `UPDATE OF ${string}`
    | "INSERT OR UPDATE OR DELETE"
    | `INSERT OR DELETE OR UPDATE OF ${string}`;
  /**
   * "ROW" fires per row (NEW and OLD are the row); "STATEMENT" fires once per statement, AFTER with the
   * rows it changed as the transition tables new_rows (INSERT, UPDATE) and old_rows (UPDATE, DELETE), so
   * a bulk insert updates a counter row once instead of once per row.
   */
  forEach: "ROW" | "STATEMENT";
  /** A condition on NEW/OLD (ROW triggers only), as SQLite's WHEN. */
  when?: string;
  /** plpgsql statements, each ending with a semicolon. */
  body: string;
}

/** Creates a PostgreSQL trigger and the plpgsql function it runs. */
export async function createPostgresTrigger(db: Kysely<any>, trigger: PostgresTrigger): Promise<void> {
  const { name, table, timing = "AFTER", event, forEach, when, body } = trigger;
  // PostgreSQL gives no transition tables to an UPDATE OF trigger: a STATEMENT trigger compares old_rows and new_rows itself.
  if (forEach === "STATEMENT" && timing === "AFTER" && event.includes("UPDATE OF"))
    throw new Error(`${name}: a STATEMENT trigger cannot be UPDATE OF`);
  await sql
    .raw(
      `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        ${body}
        RETURN NULL;
      END
    $fn$`,
    )
    .execute(db);
  const referencing =
    forEach === "ROW" || timing === "BEFORE"
      ? ""
      : event === "INSERT"
        ? "REFERENCING NEW TABLE AS new_rows"
        : event === "DELETE"
          ? "REFERENCING OLD TABLE AS old_rows"
          : "REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows";
  await sql
    .raw(
      `CREATE TRIGGER ${name} ${timing} ${event} ON ${table} ${referencing}
       FOR EACH ${forEach} ${when ? `WHEN (${when})` : ""} EXECUTE FUNCTION ${name}()`,
    )
    .execute(db);
}

/** Drops a trigger made by createPostgresTrigger, with its function. */
export async function dropPostgresTrigger(db: Kysely<any>, name: string, table: string): Promise<void> {
  await sql.raw(`DROP TRIGGER IF EXISTS ${name} ON ${table}`).execute(db);
  await sql.raw(`DROP FUNCTION IF EXISTS ${name}()`).execute(db);
}

/**
 * plpgsql that bumps content_version (migration 0030) and tells every listening process
 * (app/server/db/changes.server.ts) on the content_changed channel. PostgreSQL delivers the
 * notification when the transaction commits, once per transaction for the same payload.
 */
export const BUMP_CONTENT_VERSION_PLPGSQL = `
  UPDATE content_version SET version = version + 1 WHERE id = 1;
  PERFORM pg_notify('content_changed', TG_TABLE_NAME);`;

export interface WatchedColumns {
  /**
   * The columns a public page shows (or that decide which rows it shows): only an UPDATE that changes
   * one of them bumps the version. Unset: every write does. Every other column is private (counters,
   * timestamps, the owner's floor...): changing it leaves the cached pages in place.
   */
  columns?: readonly string[];
  /** The table's primary key column (one), to tell rows apart: "id" unless said. */
  key?: string;
}

const EVENTS = ["INSERT", "UPDATE", "DELETE"] as const;

/**
 * Makes every write to `table` that a public page can show bump content_version (migration 0030), on both
 * engines, from any process: the page cache (app/server/http/page-cache.server.ts) serves a page only while
 * the version it was rendered at is current.
 * - SQLite: a trigger per event, per row; with `columns`, the UPDATE one is `UPDATE OF` them and fires only
 *   when one of them has another value (WHEN ... IS NOT ...).
 * - PostgreSQL: per statement (a bulk write bumps once) through transition tables, with NOTIFY
 *   content_changed; with `columns`, the UPDATE one bumps only when a row's (id, columns) is not among the
 *   old rows' (key: the primary key). A BEFORE trigger takes the version row's lock before any row of the table (two transactions
 *   each changing two rows would otherwise deadlock); with `columns` only for writes that may bump, so a
 *   private write (a paid inquiry's count) neither waits for nor holds it.
 */
export async function watchContentVersion(db: Kysely<any>, table: string, watched: WatchedColumns = {}): Promise<void> {
  const { columns, key = "id" } = watched;
  if (isPostgres(db)) {
    await createPostgresTrigger(db, {
      name: `${table}_locks_content_version`,
      table,
      timing: "BEFORE",
      event: columns ? `INSERT OR DELETE OR UPDATE OF ${columns.join(", ")}` : "INSERT OR UPDATE OR DELETE",
      forEach: "STATEMENT",
      body: "PERFORM 1 FROM content_version WHERE id = 1 FOR UPDATE;",
    });
  }
  for (const event of EVENTS) {
    const name = `${table}_${event.toLowerCase()}_bumps_content_version`;
    const restricted = event === "UPDATE" && columns !== undefined;
    if (isPostgres(db)) {
      const changed = event === "DELETE" ? "old_rows" : "new_rows";
      const compared = restricted ? [key, ...columns.filter((column) => column !== key)].join(", ") : "";
      const anyChange = restricted
        ? `SELECT ${compared} FROM new_rows EXCEPT SELECT ${compared} FROM old_rows`
        : `SELECT 1 FROM ${changed}`;
      await createPostgresTrigger(db, {
        name,
        table,
        event,
        forEach: "STATEMENT",
        body: `IF EXISTS (${anyChange}) THEN ${BUMP_CONTENT_VERSION_PLPGSQL} END IF;`,
      });
      continue;
    }
    const on = restricted
      ? `UPDATE OF ${columns.join(", ")} ON ${table} WHEN ${columns.map((column) => `NEW.${column} IS NOT OLD.${column}`).join(" OR ")}`
      : `${event} ON ${table}`;
    await sql
      .raw(
        `CREATE TRIGGER ${name} AFTER ${on} BEGIN UPDATE content_version SET version = version + 1 WHERE id = 1; END`,
      )
      .execute(db);
  }
}

/** Drops what watchContentVersion made on `table`. */
export async function unwatchContentVersion(db: Kysely<any>, table: string): Promise<void> {
  if (isPostgres(db)) await dropPostgresTrigger(db, `${table}_locks_content_version`, table);
  for (const event of EVENTS) {
    const name = `${table}_${event.toLowerCase()}_bumps_content_version`;
    if (isPostgres(db)) await dropPostgresTrigger(db, name, table);
    else await sql.raw(`DROP TRIGGER IF EXISTS ${name}`).execute(db);
  }
}
