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
  event: "INSERT" | "UPDATE" | "DELETE" | `UPDATE OF ${string}` | "INSERT OR UPDATE OR DELETE";
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
  if (forEach === "STATEMENT" && event.startsWith("UPDATE OF"))
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
