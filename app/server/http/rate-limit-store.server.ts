// Where fixed-window counts live. In memory, a process counts alone (the default on SQLite: one
// process). In the database, every process counts in one table (the default on PostgreSQL, where
// several processes behind a load balancer must not each allow the limit): one upsert per attempt.
import { sql } from "kysely";
import { db } from "../db/database.server";
import { engine } from "../db/dialect.server";
import { env } from "../runtime/env.server";
import { nowMs } from "../runtime/clock.server";

export interface WindowCount {
  count: number;
  /** Epoch milliseconds at which the window ends. */
  resetAt: number;
}

export interface RateLimitStore {
  /** Counts one attempt in the key's window (a new window when none is open) and returns the window. */
  hit(key: string, windowMs: number): Promise<WindowCount>;
  /** The key's open window, if any. */
  peek(key: string): Promise<WindowCount | undefined>;
  /** Takes back one attempt. */
  undo(key: string): Promise<void>;
  reset(key: string): Promise<void>;
}

export function createMemoryStore(maxKeys = 100_000): RateLimitStore {
  const windows = new Map<string, WindowCount>();
  const current = (key: string) => {
    const window = windows.get(key);
    if (window && window.resetAt <= nowMs()) {
      windows.delete(key);
      return undefined;
    }
    return window;
  };
  return {
    async hit(key, windowMs) {
      const window = current(key);
      if (window) {
        window.count += 1;
        return { ...window };
      }
      // Bounded memory: a flood of new keys evicts the oldest first.
      if (windows.size >= maxKeys) windows.delete(windows.keys().next().value!);
      const opened = { count: 1, resetAt: nowMs() + windowMs };
      windows.set(key, opened);
      return { ...opened };
    },
    async peek(key) {
      const window = current(key);
      return window && { ...window };
    },
    async undo(key) {
      const window = current(key);
      if (window && window.count > 0) window.count -= 1;
    },
    async reset(key) {
      windows.delete(key);
    },
  };
}

/** Expired windows are deleted every this many attempts (a few rows; the index on reset_at finds them). */
const SWEEP_EVERY = 500;

export function createDatabaseStore(): RateLimitStore {
  let attempts = 0;
  const sweep = (at: number) => {
    db.deleteFrom("rate_limits")
      .where("reset_at", "<=", at)
      .execute()
      .catch(() => {});
  };
  return {
    async hit(key, windowMs) {
      const at = nowMs();
      if (++attempts % SWEEP_EVERY === 0) sweep(at);
      // One statement, atomic on both engines: both CASEs read the row as it was before this attempt.
      const row = await db
        .insertInto("rate_limits")
        .values({ key, count: 1, reset_at: at + windowMs })
        .onConflict((conflict) =>
          conflict.column("key").doUpdateSet({
            count: sql<number>`CASE WHEN rate_limits.reset_at <= ${at} THEN 1 ELSE rate_limits.count + 1 END`,
            reset_at: sql<number>`CASE WHEN rate_limits.reset_at <= ${at} THEN ${at + windowMs} ELSE rate_limits.reset_at END`,
          }),
        )
        .returning(["count", "reset_at"])
        .executeTakeFirstOrThrow();
      return { count: Number(row.count), resetAt: Number(row.reset_at) };
    },
    async peek(key) {
      const row = await db
        .selectFrom("rate_limits")
        .select(["count", "reset_at"])
        .where("key", "=", key)
        .where("reset_at", ">", nowMs())
        .executeTakeFirst();
      return row && { count: Number(row.count), resetAt: Number(row.reset_at) };
    },
    async undo(key) {
      await db
        .updateTable("rate_limits")
        .set({ count: sql`count - 1` })
        .where("key", "=", key)
        .where("count", ">", 0)
        .where("reset_at", ">", nowMs())
        .execute();
    },
    async reset(key) {
      await db.deleteFrom("rate_limits").where("key", "=", key).execute();
    },
  };
}

/** RATE_LIMIT_STORE, or by engine: one SQLite process counts in memory, PostgreSQL processes share the table. */
export function defaultStoreKind(): "memory" | "database" {
  return env.RATE_LIMIT_STORE ?? (engine === "postgres" ? "database" : "memory");
}
