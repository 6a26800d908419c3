// Moves the app's data from a SQLite file to an empty PostgreSQL database:
//   npm run migrate-to-postgres -- ./data/app.db postgres://user:password@host:5432/database
// It builds the schema on the target (the app's migrations), copies every table in foreign-key order in
// one transaction (ids kept, the migrations' triggers off while copying so counters are copied, not
// recomputed), moves every id sequence past the highest id SQLite ever gave, then compares each table's
// row count and the sums of its ids and money columns on both sides, prints them, and exits 1 on any
// difference. It refuses a target that already holds data: checked first, and again inside the copy's
// transaction once every table is locked against writes, so a process that wrote meanwhile is not
// overwritten; the copy deletes only the rows the migrations wrote (the counters in MIGRATION_ROWS).
// PostgreSQL text cannot hold U+0000, which older versions stored from the inquiry form: the copy strips
// it and prints how many it took out of each column. Stop the app first: writes made to the SQLite
// file after the copy starts are not copied.
import Database from "better-sqlite3";
import { existsSync } from "node:fs";
import { Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { migrationNames, runMigrations } from "../app/server/db/migrator.server";

const BATCH_ROWS = 5_000;
/** Tables whose rows the migrations make (one counter row each): they may be in an "empty" target. */
const MIGRATION_ROWS = new Set(["content_version", "domain_totals"]);

class Refusal extends Error {}

const NUL = /\u0000/g;
/** NUL characters taken out of text values, by "table.column". */
const strippedNul = new Map<string, number>();

interface Table {
  name: string;
  columns: string[];
  /** Columns whose sums are compared: ids (`id`, `*_id`) and money (`*_cents`) that hold integers. */
  summed: string[];
  primaryKey: string[];
  references: string[];
}

const [sourceArgument, targetUrl] = process.argv.slice(2);
if (!sourceArgument || !targetUrl || !/^postgres(ql)?:\/\/./.test(targetUrl)) {
  console.error("Usage: npm run migrate-to-postgres -- <sqlite file> <postgres://user:password@host:5432/database>");
  process.exit(2);
}
const sourcePath = sourceArgument.startsWith("file:") ? sourceArgument.slice("file:".length) : sourceArgument;

const target = new Kysely<any>({
  dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: targetUrl, max: 2 }) }),
});
let source: Database.Database | undefined;
try {
  if (!existsSync(sourcePath)) throw new Refusal(`${sourcePath} does not exist`);
  source = new Database(sourcePath, { readonly: true, fileMustExist: true });
  // Integers as BigInt: cents and ids are copied and summed exactly, whatever their size.
  source.defaultSafeIntegers(true);
  process.exitCode = await migrate(source);
} catch (error) {
  console.error(
    error instanceof Refusal ? `Nothing was copied: ${error.message}` : `Copy failed: ${(error as Error).stack}`,
  );
  process.exitCode = 1;
} finally {
  source?.close();
  await target.destroy();
}

async function migrate(source: Database.Database): Promise<number> {
  checkSourceIsCurrent(source);
  await refuseNonEmptyTarget();
  const applied = await runMigrations(target);
  console.log(`Target schema: ${applied.length} migrations applied`);
  const tables = inForeignKeyOrder(readTables(source));
  await checkTargetColumns(tables);

  // One read transaction on SQLite: the copy and the sums it is checked against are one snapshot.
  source.exec("BEGIN");
  try {
    const started = performance.now();
    await target.transaction().execute(async (trx) => {
      // No other process writes until the copy commits (a write in progress is waited for), and the target
      // is checked again under the lock: what another process wrote since the first check is refused.
      const locked = await targetTables(trx);
      await sql`LOCK TABLE ${sql.join(locked.map((name) => sql.table(name)))} IN EXCLUSIVE MODE`.execute(trx);
      await refuseNonEmptyTarget(trx);
      for (const table of tables) await sql`ALTER TABLE ${sql.table(table.name)} DISABLE TRIGGER USER`.execute(trx);
      // Only the migrations' own rows (content_version, domain_totals) are deleted: the source's replace them.
      for (const table of tables) if (MIGRATION_ROWS.has(table.name)) await trx.deleteFrom(table.name).execute();
      for (const table of tables) {
        const rows = await copyTable(source, trx, table);
        console.log(`  ${table.name}: ${rows} rows`);
      }
      for (const table of tables) await sql`ALTER TABLE ${sql.table(table.name)} ENABLE TRIGGER USER`.execute(trx);
      await advanceSequences(source, trx, tables);
    });
    console.log(`Copied ${tables.length} tables in ${Math.round(performance.now() - started)} ms`);
    reportStrippedNul();
    return await verify(source, tables);
  } finally {
    source.exec("COMMIT");
  }
}

function checkSourceIsCurrent(source: Database.Database): void {
  const hasMigrations = source
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'kysely_migration'")
    .get();
  if (!hasMigrations) throw new Refusal(`${sourcePath} is not this app's database (it has no kysely_migration table)`);
  const ran = (source.prepare("SELECT name FROM kysely_migration ORDER BY name").all() as { name: string }[]).map(
    (row) => row.name,
  );
  const missing = migrationNames.filter((name) => !ran.includes(name));
  const unknown = ran.filter((name) => !migrationNames.includes(name));
  if (missing.length > 0) {
    throw new Refusal(
      `${sourcePath} has not run migrations ${missing.join(", ")}: start this version of the app on it once (it migrates at start), then stop it and copy`,
    );
  }
  if (unknown.length > 0)
    throw new Refusal(
      `${sourcePath} was migrated by a newer version of the app (${unknown.join(", ")}): copy with that version`,
    );
}

/** The target's tables, less Kysely's own (the migrations' bookkeeping). */
async function targetTables(executor: Kysely<any>): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`SELECT table_name AS name FROM information_schema.tables
    WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`.execute(executor);
  return rows.map((row) => row.name).filter((name) => !name.startsWith("kysely_"));
}

async function refuseNonEmptyTarget(executor: Kysely<any> = target): Promise<void> {
  const holding: string[] = [];
  for (const name of await targetTables(executor)) {
    if (MIGRATION_ROWS.has(name)) continue;
    const { rows: found } = await sql`SELECT 1 FROM ${sql.table(name)} LIMIT 1`.execute(executor);
    if (found.length > 0) holding.push(name);
  }
  if (holding.length > 0) {
    throw new Refusal(
      `the target database is not empty (rows in ${holding.join(", ")}). Copy into a new, empty database (CREATE DATABASE ...), never over one in use`,
    );
  }
}

function readTables(source: Database.Database): Table[] {
  const names = source
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE 'kysely\\_%' ESCAPE '\\' ORDER BY name",
    )
    .all() as { name: string }[];
  return names.map(({ name }) => {
    const columns = source.prepare(`PRAGMA table_info(${quote(name)})`).all() as {
      name: string;
      type: string;
      pk: bigint;
    }[];
    const references = source.prepare(`PRAGMA foreign_key_list(${quote(name)})`).all() as { table: string }[];
    return {
      name,
      columns: columns.map((column) => column.name),
      summed: columns
        .filter((column) => column.type.toUpperCase() === "INTEGER" && /^(id|.*_id|.*_cents)$/.test(column.name))
        .map((column) => column.name),
      primaryKey: columns
        .filter((column) => column.pk > 0n)
        .sort((a, b) => Number(a.pk - b.pk))
        .map((column) => column.name),
      references: [...new Set(references.map((reference) => reference.table).filter((table) => table !== name))],
    };
  });
}

/** Referenced tables before the tables that reference them. */
function inForeignKeyOrder(tables: Table[]): Table[] {
  const ordered: Table[] = [];
  const placed = new Set<string>();
  const place = (table: Table, path: string[]) => {
    if (placed.has(table.name)) return;
    if (path.includes(table.name)) throw new Error(`foreign keys form a cycle: ${[...path, table.name].join(" -> ")}`);
    for (const name of table.references) {
      const referenced = tables.find((candidate) => candidate.name === name);
      if (referenced) place(referenced, [...path, table.name]);
    }
    placed.add(table.name);
    ordered.push(table);
  };
  for (const table of tables) place(table, []);
  return ordered;
}

async function checkTargetColumns(tables: Table[]): Promise<void> {
  const { rows } = await sql<{ table: string; column: string }>`SELECT table_name AS table, column_name AS column
    FROM information_schema.columns WHERE table_schema = current_schema()`.execute(target);
  const present = new Set(rows.map((row) => `${row.table}.${row.column}`));
  const missing = tables
    .flatMap((table) => table.columns.map((column) => `${table.name}.${column}`))
    .filter((name) => !present.has(name));
  if (missing.length > 0)
    throw new Refusal(
      `the target schema has no ${missing.join(", ")}: the SQLite file has tables or columns the migrations do not make`,
    );
}

async function copyTable(source: Database.Database, trx: Kysely<any>, table: Table): Promise<number> {
  const order = (table.primaryKey.length > 0 ? table.primaryKey : ["rowid"]).map(quote).join(", ");
  const columns = sql.join(table.columns.map((column) => sql.ref(column)));
  let batch: Record<string, unknown>[] = [];
  let copied = 0;
  // A batch goes as one JSON parameter that PostgreSQL turns into rows of the table's own types (ids and
  // cents as text in the JSON, so a BigInt keeps every digit): one statement per batch, parsed once.
  const flush = async () => {
    if (batch.length === 0) return;
    const rows = JSON.stringify(batch, (_key, value) => (typeof value === "bigint" ? value.toString() : value));
    await sql`INSERT INTO ${sql.table(table.name)} (${columns})
      SELECT ${columns} FROM json_populate_recordset(NULL::${sql.table(table.name)}, ${rows})`.execute(trx);
    copied += batch.length;
    batch = [];
  };
  // The iterator stays open across the inserts: they run on PostgreSQL, not on this connection.
  for (const row of source
    .prepare(`SELECT ${table.columns.map(quote).join(", ")} FROM ${quote(table.name)} ORDER BY ${order}`)
    .iterate()) {
    batch.push(withoutNul(table.name, row as Record<string, unknown>));
    if (batch.length >= BATCH_ROWS) await flush();
  }
  await flush();
  return copied;
}

/** The row with U+0000 taken out of its text values (PostgreSQL rejects it), counted in strippedNul. */
function withoutNul(table: string, row: Record<string, unknown>): Record<string, unknown> {
  for (const [column, value] of Object.entries(row)) {
    if (typeof value !== "string" || !value.includes("\u0000")) continue;
    const key = `${table}.${column}`;
    strippedNul.set(key, (strippedNul.get(key) ?? 0) + (value.match(NUL)?.length ?? 0));
    row[column] = value.replace(NUL, "");
  }
  return row;
}

function reportStrippedNul(): void {
  if (strippedNul.size === 0) return;
  const total = [...strippedNul.values()].reduce((sum, count) => sum + count, 0);
  const where = [...strippedNul].map(([column, count]) => `${column}: ${count}`).join(", ");
  console.log(`Stripped ${total} NUL characters (U+0000, which PostgreSQL text cannot hold) from ${where}`);
}

/**
 * Every serial column's sequence continues after the highest id: the copied rows' or, higher still,
 * one SQLite gave to a row since deleted (AUTOINCREMENT never reuses an id, and neither will PostgreSQL).
 */
async function advanceSequences(source: Database.Database, trx: Kysely<any>, tables: Table[]): Promise<void> {
  const hasSequenceTable = source.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence'").get();
  for (const table of tables) {
    for (const column of table.columns) {
      const { rows } = await sql<{
        sequence: string | null;
      }>`SELECT pg_get_serial_sequence(${table.name}, ${column}) AS sequence`.execute(trx);
      const sequence = rows[0]?.sequence;
      if (!sequence) continue;
      const { rows: highest } = await sql<{
        max: string | null;
      }>`SELECT max(${sql.ref(column)})::text AS max FROM ${sql.table(table.name)}`.execute(trx);
      const given = hasSequenceTable
        ? ((
            source.prepare("SELECT seq FROM sqlite_sequence WHERE name = ?").get(table.name) as
              { seq: bigint } | undefined
          )?.seq ?? 0n)
        : 0n;
      const last = [BigInt(highest[0]?.max ?? 0), given].reduce((a, b) => (a > b ? a : b));
      if (last > 0n) await sql`SELECT setval(${sequence}, ${last.toString()}::bigint, true)`.execute(trx);
      else await sql`SELECT setval(${sequence}, 1, false)`.execute(trx);
    }
  }
}

/** Compares row counts and sums on both sides and prints them; returns the exit code. */
async function verify(source: Database.Database, tables: Table[]): Promise<number> {
  const lines: [string, string, string, string, string][] = [];
  let mismatches = 0;
  for (const table of tables) {
    const measures = [
      { label: "rows", sqlite: "count(*)", postgres: sql`count(*)` },
      ...table.summed.map((column) => ({
        label: `sum(${column})`,
        sqlite: `coalesce(sum(${quote(column)}), 0)`,
        postgres: sql`coalesce(sum(${sql.ref(column)}), 0)`,
      })),
    ];
    const sqliteValues = source
      .prepare(`SELECT ${measures.map((measure) => measure.sqlite).join(", ")} FROM ${quote(table.name)}`)
      .raw()
      .get() as unknown[];
    const { rows } = await sql<
      Record<string, string>
    >`SELECT ${sql.join(measures.map((measure, index) => sql`(${measure.postgres})::text AS ${sql.ref(`m${index}`)}`))}
      FROM ${sql.table(table.name)}`.execute(target);
    measures.forEach((measure, index) => {
      const expected = String(sqliteValues[index]);
      const actual = rows[0]![`m${index}`]!;
      const same = expected === actual;
      if (!same) mismatches += 1;
      lines.push([table.name, measure.label, expected, actual, same ? "ok" : "MISMATCH"]);
    });
  }
  printTable([["table", "check", "sqlite", "postgres", ""], ...lines]);
  if (mismatches > 0) {
    console.error(
      `${mismatches} checks differ: do not switch to the PostgreSQL database; fix the cause and copy into a new empty one`,
    );
    return 1;
  }
  console.log(
    `All ${lines.length} checks match. Set DATABASE_URL to the PostgreSQL URL (and SESSION_SECRET) and start the app.`,
  );
  return 0;
}

function printTable(rows: string[][]): void {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const numeric = (column: number) => column === 2 || column === 3;
  for (const row of rows) {
    console.log(
      row
        .map((cell, column) => (numeric(column) ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!)))
        .join("  ")
        .trimEnd(),
    );
  }
}

function quote(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}
