// Where SQLite and PostgreSQL differ, and how the app says it once. Queries elsewhere are plain Kysely;
// when one needs an engine-specific piece it asks here instead of testing the engine itself.
// Both engines store times as ISO-8601 text (UTC, "2026-11-23T07:51:26.000Z"), which sorts as time does.
import {
  sql,
  type Compilable,
  type CompiledQuery,
  type Kysely,
  type RawBuilder,
  type SelectQueryBuilder,
} from "kysely";
import type { Database as Schema } from "../../../db/schema";
import { env } from "../runtime/env.server";
import { db, readAtOnce, runPrepared, StalePreparedStatement } from "./database.server";
import { log } from "../runtime/log.server";
import { withoutNul } from "./strip-nul.server";

export type Engine = "sqlite" | "postgres";
export const engine: Engine = env.engine;
const postgres = engine === "postgres";

/** Anything a query can run on: the database, or the transaction a caller is inside. */
export type Executor = Kysely<Schema>;

/** The open transactions this process runs, each with the work to do once it commits (afterCommit). */
const openTransactions = new WeakMap<Executor, Array<() => void>>();

/**
 * Runs `work` in one transaction and returns its result; an error rolls everything back. Passing the
 * `within` executor of an outer transaction joins it instead of starting another. SQLite takes its write
 * lock at the start (BEGIN IMMEDIATE), so a transaction that reads and then writes waits for another
 * process's lock (busy_timeout) instead of failing when it tries to write. Never await anything but the
 * database inside: on SQLite every other query of the process waits for the transaction to end.
 */
export async function inTransaction<T>(work: (trx: Executor) => Promise<T>, within: Executor = db): Promise<T> {
  if (openTransactions.has(within)) return work(within);
  const onCommit: Array<() => void> = [];
  const run = async (trx: Executor) => {
    openTransactions.set(trx, onCommit);
    try {
      return await work(trx);
    } finally {
      openTransactions.delete(trx);
    }
  };
  const result = postgres
    ? await within.transaction().execute(run)
    : await within.connection().execute(async (connection) => {
        await sql`BEGIN IMMEDIATE`.execute(connection);
        try {
          const committed = await run(connection);
          await sql`COMMIT`.execute(connection);
          return committed;
        } catch (error) {
          await sql`ROLLBACK`.execute(connection).catch(() => {});
          throw error;
        }
      });
  for (const callback of onCommit) setImmediate(callback);
  return result;
}

/** Runs `callback` soon after `executor`'s transaction commits (dropped if it rolls back); outside a transaction, soon. */
export function afterCommit(executor: Executor, callback: () => void): void {
  const pending = openTransactions.get(executor);
  if (pending) pending.push(callback);
  else setImmediate(callback);
}

/** The larger of two numbers (SQLite's two-argument max(), PostgreSQL's greatest()). */
export function greatest(a: RawBuilder<unknown> | string, b: RawBuilder<unknown> | number): RawBuilder<number> {
  const left = typeof a === "string" ? sql.ref(a) : a;
  return postgres ? sql<number>`greatest(${left}, ${b})` : sql<number>`max(${left}, ${b})`;
}

/** Milliseconds from one ISO time column to another (later minus earlier). */
export function millisecondsBetween(earlier: string, later: string): RawBuilder<number> {
  return postgres
    ? sql<number>`extract(epoch from (${sql.ref(later)}::timestamptz - ${sql.ref(earlier)}::timestamptz)) * 1000.0`
    : sql<number>`(julianday(${sql.ref(later)}) - julianday(${sql.ref(earlier)})) * 86400000.0`;
}

/** The newline character in SQL (joins the admin search's columns; see migration 0110). */
export const newlineChar: RawBuilder<string> = postgres ? sql<string>`chr(10)` : sql<string>`char(10)`;

/** "Contains, ignoring ASCII case": SQLite's LIKE already ignores it, PostgreSQL's does not. */
export const likeOperator = postgres ? sql.raw("ILIKE") : sql.raw("LIKE");

/**
 * Claims rows for this process on PostgreSQL: rows another process has locked are skipped rather than
 * waited for. SQLite's write lock already excludes every other writer, so the query is unchanged there.
 */
export function skipLocked<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
): SelectQueryBuilder<DB, TB, O> {
  return postgres ? query.forUpdate().skipLocked() : query;
}

/**
 * After a table name in a FROM clause: on SQLite, read that index instead of the table (the planner would
 * scan the table for a LIKE with a leading %, at twice the cost); nothing on PostgreSQL.
 */
export function indexedBy(index: string): RawBuilder<unknown> {
  return postgres ? sql`` : sql`INDEXED BY ${sql.id(index)}`;
}

/**
 * `column IN (values)` with the values as ONE parameter (a JSON array on SQLite, an array on PostgreSQL),
 * so a list of any length is one SQL text (one cached statement) and never runs into a parameter limit.
 */
export function inList(column: string, values: number[] | string[]): RawBuilder<boolean> {
  return postgres
    ? sql<boolean>`${sql.ref(column)} = ANY(${values})`
    : sql<boolean>`${sql.ref(column)} IN (SELECT value FROM json_each(${JSON.stringify(values)}))`;
}

/**
 * An integer column's values over a query's rows, as one value (an aggregate; `idsFrom` reads it): an
 * array on PostgreSQL (array_agg: json_agg took twice as long over 100,000 rows), JSON text on SQLite. The
 * counterpart of inList.
 */
export function idArray(column: string): RawBuilder<unknown> {
  return postgres ? sql`array_agg(${sql.ref(column)})` : sql`json_group_array(${sql.ref(column)})`;
}

/** The ids of an idArray: PostgreSQL gives an array (null over no rows), SQLite JSON text. */
export function idsFrom(value: unknown): number[] {
  if (value === null || value === undefined) return [];
  return typeof value === "string" ? (JSON.parse(value) as number[]) : (value as number[]);
}

/** True when an insert or update broke a UNIQUE constraint (index) on either engine. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "23505" || code === "SQLITE_CONSTRAINT_UNIQUE";
}

/**
 * A query built and compiled once; each call runs that SQL with its own values, given in the order the
 * builder met them (a builder and compiler run costs more than the read itself on SQLite). For the
 * queries of every page view only: the SQL must not depend on the values (no lists of varying length).
 */
let compiledCount = 0;
export function compiledOnce<R, P extends readonly unknown[] = []>(
  build: (executor: Executor) => Compilable<R>,
): (parameters: P, executor?: Executor) => Promise<R[]> {
  let compiled: CompiledQuery<R> | undefined;
  // On PostgreSQL a prepared statement of its own, until it no longer fits (runPrepared).
  let prepared: string | undefined = postgres ? `compiled_once_${(compiledCount += 1)}` : undefined;
  return async (parameters, executor = db) => {
    compiled ??= build(db).compile();
    // A compiled query skips the plugins, so its parameters lose their NULs here (see strip-nul.server.ts).
    const values = parameters.map(withoutNul);
    if (executor === db) {
      // Outside a caller's transaction a SQLite read runs at once when the connection is free.
      const rows = readAtOnce(compiled.sql, values);
      if (rows) return rows as R[];
      if (prepared) {
        try {
          const preparedRows = await runPrepared(prepared, compiled.sql, values);
          if (preparedRows) return preparedRows as R[];
        } catch (error) {
          if (!(error instanceof StalePreparedStatement)) throw error;
          log.warn({ error: error.message }, "query no longer prepared");
          prepared = undefined;
        }
      }
    }
    return (await executor.executeQuery<R>({ ...compiled, parameters: values })).rows;
  };
}
