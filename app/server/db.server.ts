import Database from "better-sqlite3";
import { chmodSync, existsSync, mkdirSync } from "node:fs";
import { Kysely, Migrator, SqliteDialect } from "kysely";
import { migrations } from "../../db/migrations/index";
import type { Database as Schema } from "../../db/schema";
import { env } from "./env.server";

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

/** Retry-After for a request refused because another writer held the database too long. */
export const BUSY_RETRY_AFTER_SECONDS = 5;
export const BUSY_MESSAGE = "The site is busy right now. Nothing was saved; please try again in a moment.";

/** True for SQLite's "database is locked" (another connection kept its write lock past busy_timeout). */
export function isDatabaseBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("SQLITE_BUSY");
}

/** The raw connection, for prepared statements on hot paths and synchronous transactions. */
export const sqlite = openSqlite(env.databasePath);

export const db = new Kysely<Schema>({
  dialect: new SqliteDialect({ database: sqlite }),
});

export async function migrateToLatest(): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    // Features land in parallel with their own number ranges; an older-numbered one may arrive later.
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  for (const result of results ?? []) {
    if (result.status === "Error") console.error(`migration ${result.migrationName} failed`);
  }
  if (error) throw error;
}

export function closeDatabase(): void {
  if (sqlite.open) sqlite.close();
}

/** A prepared statement made on first use, after migrations have created its tables. */
export function lazyStatement<P extends unknown[] | {}, R = unknown>(text: string): () => Database.Statement<P, R> {
  let statement: Database.Statement<P, R> | undefined;
  return () => (statement ??= sqlite.prepare<P, R>(text));
}
