import { sql } from "kysely";
import { db, isDatabaseOpen, sqliteConnection } from "./database.server";
import { log } from "../runtime/log.server";

// Without statistics SQLite's planner may count a search over a large portfolio by walking the price
// index and looking every row up (hundreds of milliseconds at 100,000 domains) instead of scanning the
// table (tens). `PRAGMA optimize` gathers statistics only where the data changed a lot since the last
// run; analysis_limit keeps each run to milliseconds. PostgreSQL's autovacuum analyzes tables by itself,
// so there this task does nothing.
const INTERVAL_MS = 10 * 60 * 1000;
const ANALYZE_UNANALYZED_TABLES = 0x10002;
let timer: ReturnType<typeof setInterval> | undefined;
let running: Promise<void> | undefined;

/** Through `db`, so it waits for a transaction in progress on the connection instead of joining it. */
async function optimize(mask?: number): Promise<void> {
  if (!sqliteConnection || !isDatabaseOpen()) return;
  try {
    await sql.raw("PRAGMA analysis_limit = 1000").execute(db);
    await sql.raw(mask === undefined ? "PRAGMA optimize" : `PRAGMA optimize = ${mask}`).execute(db);
  } catch (error) {
    log.error({ error: (error as Error).message }, "query planner statistics not updated");
  }
}

/** Registered by startup.server.ts: statistics at start, then every ten minutes (a no-op unless the data changed a lot). */
export const plannerStatsTask = {
  start: async () => {
    await optimize(ANALYZE_UNANALYZED_TABLES);
    timer = setInterval(() => {
      running ??= optimize().finally(() => (running = undefined));
    }, INTERVAL_MS);
    timer.unref();
  },
  stop: async () => {
    if (timer) clearInterval(timer);
    timer = undefined;
    await running;
  },
};
