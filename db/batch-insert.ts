import type { Insertable, Kysely } from "kysely";
import type { Database } from "./schema";

/** Rows per multi-row INSERT: 1,000 rows of a few columns stay far below both engines' parameter limits. */
export const INSERT_BATCH = 1000;

/**
 * Inserts many rows with few statements: batches of INSERT_BATCH rows, the rest in batches of 512, 256,
 * ... 1 (a remainder of 345 is five statements). At most eleven SQL texts ever, so SQLite's statement
 * cache stays small. Call it inside a transaction: half a bulk load must not be left behind.
 */
export async function insertInBatches<T extends keyof Database & string>(
  executor: Kysely<Database>,
  table: T,
  rows: Array<Insertable<Database[T]>>,
): Promise<void> {
  for (let start = 0; start < rows.length;) {
    const left = rows.length - start;
    const size = left >= INSERT_BATCH ? INSERT_BATCH : 2 ** Math.floor(Math.log2(left));
    await executor
      .insertInto(table)
      .values(rows.slice(start, start + size) as never)
      .execute();
    start += size;
  }
}
