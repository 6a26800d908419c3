// The one database of the app, on either engine DATABASE_URL names: a SQLite file (the default: one
// process, nothing else to run) or PostgreSQL (several processes on several hosts). Every query goes
// through `db` (Kysely, typed by db/schema.ts); where the engines differ, ./dialect.server.ts says how.
import Database from "better-sqlite3";
import { chmodSync, existsSync, mkdirSync } from "node:fs";
import { Kysely, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";
import type { Database as Schema } from "../../../db/schema";
import { env } from "../runtime/env.server";
import { runMigrations } from "./migrator.server";
import { StripNulPlugin } from "./strip-nul.server";
import { log } from "../runtime/log.server";

export class DatabaseOpenError extends Error {}

function openSqlite(file: string): Database.Database {
  try {
    mkdirSync(env.dataDir, { recursive: true, mode: 0o700 });
    const connection = new Database(file);
    restrictToOwner(file);
    connection.pragma("journal_mode = WAL");
    connection.pragma("foreign_keys = ON");
    connection.pragma(`busy_timeout = ${env.SQLITE_BUSY_TIMEOUT_MS}`);
    connection.pragma("synchronous = NORMAL");
    return connection;
  } catch (error) {
    throw new DatabaseOpenError(`Cannot open the database at ${file}: ${(error as Error).message}`);
  }
}

/** A database made before files were kept private (or copied in with a loose mode) is tightened to 0600. */
function restrictToOwner(file: string): void {
  for (const part of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      if (existsSync(part)) chmodSync(part, 0o600);
    } catch {
      // not ours to change (another user's file): SQLite opened it, so it stays as it is
    }
  }
}

/**
 * Told the content version (migration 0030) after each write of this process commits, read on the
 * connection that wrote, before the write's caller goes on (app/server/db/content-version.server.ts):
 * the process's own writes reach its page cache at commit, with no wait for a poll or a notification.
 */
let committedWriteListener: ((version: number) => void) | undefined;
export function onCommittedWrite(listener: ((version: number) => void) | undefined): void {
  committedWriteListener = listener;
}

/** Statements this process sent to the database (/healthz; the tests count a cached hit's). */
let statementCount = 0;
export function statementsRun(): number {
  return statementCount;
}

const READ_CONTENT_VERSION = "SELECT version FROM content_version WHERE id = 1";

/**
 * After each statement on the one SQLite connection: a write outside a transaction, or the end of a
 * transaction that wrote, tells the committed-write listener (a synchronous read of one row).
 */
function sqliteWriteTracker(connection: Database.Database) {
  let dirty = false;
  let readVersion: Database.Statement | undefined;
  return (readonly: boolean) => {
    statementCount += 1;
    if (!readonly) dirty = true;
    if (!dirty || connection.inTransaction || !committedWriteListener) return;
    dirty = false;
    try {
      readVersion ??= connection.prepare(READ_CONTENT_VERSION);
      const row = readVersion.get() as { version: number | bigint } | undefined;
      if (row) committedWriteListener(Number(row.version));
    } catch (error) {
      log.error({ error: (error as Error).message }, "reading the content version after a write failed");
    }
  };
}

/**
 * Kysely prepares every query it runs; better-sqlite3 statements can be reused, so the SQLite connection
 * Kysely sees keeps one per SQL text (a few hundred at most: the app's queries, not user input). A
 * streamed query (iterate) gets its own statement, since a statement being iterated cannot run another.
 */
type CachedStatement = Pick<Database.Statement, "reader"> &
  Record<"all" | "run" | "iterate", (parameters: unknown[]) => unknown>;

function withStatementCache(connection: Database.Database) {
  // The statement and the small object Kysely calls are both made once per SQL text, not per query.
  const statements = new Map<string, CachedStatement>();
  const afterStatement = sqliteWriteTracker(connection);
  const prepare = (text: string) => {
    let cached = statements.get(text);
    if (!cached) {
      const statement = connection.prepare(text);
      const readonly = statement.readonly;
      cached = {
        reader: statement.reader,
        all: (parameters) => {
          const rows = statement.all(...parameters);
          afterStatement(readonly);
          return rows;
        },
        run: (parameters) => {
          const result = statement.run(...parameters);
          afterStatement(readonly);
          return result;
        },
        iterate: (parameters) => {
          statementCount += 1;
          return connection.prepare(text).iterate(...parameters);
        },
      };
      statements.set(text, cached);
    }
    return cached;
  };
  const database = new Proxy(connection, {
    get: (target, property) => {
      if (property === "prepare") return prepare;
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { database, prepare };
}

// PostgreSQL answers count(*) and sums as 64-bit integers, which pg leaves as strings: the app's counts
// and cents fit in a JavaScript number, so they are read as numbers, as on SQLite.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number(value));

const POSTGRES_WRITES = new Set(["INSERT", "UPDATE", "DELETE", "MERGE"]);

/**
 * The PostgreSQL side of sqliteWriteTracker, per pooled connection: from each answer's command tag it
 * follows BEGIN/COMMIT, and after a write outside a transaction or a COMMIT of one that wrote it reads the
 * content version on the same connection before the caller gets the answer.
 */
function trackWrites(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  let inTransaction = false;
  let dirty = false;
  client.query = ((...args: unknown[]) => {
    statementCount += 1;
    const answer = query(...args);
    if (!(answer instanceof Promise)) return answer;
    return answer.then(async (result: pg.QueryResult) => {
      const command = result?.command;
      if (command === "BEGIN" || command === "START") inTransaction = true;
      else if (command === "COMMIT" || command === "ROLLBACK") inTransaction = false;
      else if (POSTGRES_WRITES.has(command)) dirty = true;
      const listener = committedWriteListener;
      if (dirty && !inTransaction && listener) {
        dirty = false;
        statementCount += 1;
        try {
          const read = (await query(READ_CONTENT_VERSION)) as pg.QueryResult<{ version: number }>;
          if (read.rows[0]) listener(Number(read.rows[0].version));
        } catch (error) {
          log.error({ error: (error as Error).message }, "reading the content version after a write failed");
        }
      }
      return result;
    });
  }) as typeof client.query;
}

function openPostgres(url: string): pg.Pool {
  // idleTimeoutMillis 0: the pool keeps the connections it opened (up to DATABASE_POOL_SIZE) instead of
  // closing those idle for 10 s (pg's default). A reopened connection costs a new server backend, its
  // catalog caches filled again and every prepared statement (runPrepared) parsed and planned again: the
  // first requests after a quiet spell paid for that. allowExitOnIdle: idle connections alone do not keep
  // a process alive (a script that ends without closeDatabase still exits).
  const pool = new pg.Pool({
    connectionString: url,
    max: env.DATABASE_POOL_SIZE,
    idleTimeoutMillis: 0,
    allowExitOnIdle: true,
  });
  pool.on("connect", trackWrites);
  // An idle connection the server drops (a restart, a failover) must not take the process down.
  pool.on("error", (error) => log.error({ error: error.message }, "database connection lost"));
  return pool;
}

/** The SQLite connection (null on PostgreSQL): for the few things only SQLite has (backup, pragmas). */
export const sqliteConnection: Database.Database | null = env.engine === "sqlite" ? openSqlite(env.databasePath) : null;

const sqliteStatements = sqliteConnection ? withStatementCache(sqliteConnection) : null;
let postgresPool: pg.Pool | null = null;

export const db = new Kysely<Schema>({
  dialect: sqliteStatements
    ? new SqliteDialect({ database: sqliteStatements.database })
    : new PostgresDialect({ pool: (postgresPool ??= openPostgres(env.DATABASE_URL)) }),
  plugins: sqliteConnection ? [] : [new StripNulPlugin()],
});

/**
 * The rows of a compiled SELECT run at once on the SQLite connection, the statement Kysely would run
 * (same cache, same count) without the queue Kysely keeps for the one connection (its lock, a few
 * promises: a twentieth of an uncached page's CPU). Only while no transaction is open on the connection:
 * a read then can neither see another request's uncommitted writes nor become part of its transaction.
 * Undefined when the read must take its turn through Kysely: on PostgreSQL, inside a transaction, or for
 * a statement that is not a read.
 */
export function readAtOnce(text: string, parameters: readonly unknown[]): unknown[] | undefined {
  if (!sqliteStatements || !sqliteConnection || sqliteConnection.inTransaction || closed) return undefined;
  const statement = sqliteStatements.prepare(text);
  return statement.reader ? (statement.all(parameters as unknown[]) as unknown[]) : undefined;
}

/**
 * Error codes of a prepared statement that no longer fits: its result changed shape (another process
 * migrated the schema), or it is unknown or already there (a pooler in front that shares server
 * connections).
 */
const STALE_PREPARED = new Set(["0A000", "26000", "42P05"]);

/**
 * A compiled query on PostgreSQL as a prepared statement named `name` on each pooled connection: the
 * server parses and plans it once per connection instead of on every run (an uncached page's one read
 * cost PostgreSQL more CPU than the page cost Node). Undefined on SQLite. A statement that no longer fits
 * (see STALE_PREPARED) throws a StalePreparedStatement: the caller runs the query unprepared from then on.
 */
export async function runPrepared(
  name: string,
  text: string,
  parameters: readonly unknown[],
): Promise<unknown[] | undefined> {
  if (!postgresPool || closed) return undefined;
  try {
    return (await postgresPool.query({ name, text, values: parameters as unknown[] })).rows as unknown[];
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (typeof code === "string" && STALE_PREPARED.has(code)) throw new StalePreparedStatement(name, error);
    throw error;
  }
}

export class StalePreparedStatement extends Error {
  constructor(name: string, cause: unknown) {
    super(`prepared statement ${name} no longer fits: ${(cause as Error)?.message ?? cause}`, { cause });
  }
}

/** Retry-After for a request refused because another writer held the database too long. */
export const BUSY_RETRY_AFTER_SECONDS = 5;
export const BUSY_MESSAGE = "The site is busy right now. Nothing was saved; please try again in a moment.";

// PostgreSQL's codes for the same situation: a lock not granted in time, a serialization conflict or
// deadlock (the transaction was rolled back), or a server refusing new connections for now.
const POSTGRES_BUSY_CODES = new Set(["55P03", "40001", "40P01", "57P03", "53300"]);

/** True when another writer kept the database locked too long (nothing was written; try again later). */
export function isDatabaseBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && (code.startsWith("SQLITE_BUSY") || POSTGRES_BUSY_CODES.has(code));
}

/** Brings the database to the latest schema; returns the migrations it ran (see ./migrator.server.ts). */
export async function migrateToLatest(): Promise<string[]> {
  return runMigrations(db);
}

let closed = false;
export function isDatabaseOpen(): boolean {
  return !closed;
}

export async function closeDatabase(): Promise<void> {
  if (closed) return;
  closed = true;
  // Kysely's destroy closes the SQLite connection or ends the PostgreSQL pool.
  await db.destroy();
}
