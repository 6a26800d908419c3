import type { Insertable, Kysely } from "kysely";
import type { Database } from "./schema";

/** Rows per multi-row INSERT: 1,000 rows of a few columns stay far below both engines' parameter limits. */
export const INSERT_BATCH = 1000;

/**
 * Inserts many rows with few statements: full batches of INSERT_BATCH rows, then the rest one by one.
 * Only two SQL texts ever (the batch and the single row), so SQLite's statement cache stays small.
 * Call it inside a transaction: half a bulk load must not be left behind.
 */
export async function insertInBatches<T extends keyof Database & string>(
  executor: Kysely<Database>,
  table: T,
  rows: Array<Insertable<Database[T]>>,
): Promise<void> {
  const full = rows.length - (rows.length % INSERT_BATCH);
  for (let start = 0; start < full; start += INSERT_BATCH) {
    await executor.insertInto(table).values(rows.slice(start, start + INSERT_BATCH) as never).execute();
  }
  for (const row of rows.slice(full)) await executor.insertInto(table).values(row as never).execute();
}
