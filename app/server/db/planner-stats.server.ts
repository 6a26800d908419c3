import { sql } from "kysely";
import { db, isDatabaseOpen, sqliteConnection } from "./database.server";
import { log } from "../runtime/log.server";

// Without statistics SQLite's planner may count a search over a large portfolio by walking the price
// index and looking every row up (hundreds of milliseconds at 100,000 domains) instead of scanning the
// table (tens). `PRAGMA optimize` gathers statistics only where the data changed a lot since the last
// run; analysis_limit keeps each run to milliseconds. PostgreSQL's autovacuum analyzes tables by itself,
// so there this task does nothing.
//
// A limited analysis writes sqlite_stat1 only. The samples of sqlite_stat4, which a full ANALYZE writes
// (by hand, or by an older seed-many), cost more than they give here: with them SQLite prepares a
// statement again on every run when its plan may depend on a bound value, which is any search of an
// indexed column. A domain page's one read took three times as long (about 25 µs instead of 8 at 100,000
// names) and every first render of the crawl paid it twice. They are dropped at start.
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

/** Empties sqlite_stat4 when a full ANALYZE filled it, and has the planner read the statistics again. */
async function dropValueSamples(): Promise<void> {
  if (!sqliteConnection || !isDatabaseOpen()) return;
  try {
    const { rows } = await sql<{ found: number }>`
      SELECT count(*) AS found FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_stat4'
    `.execute(db);
    if (!rows[0]?.found) return;
    const samples = await sql<{ rows: number }>`SELECT count(*) AS rows FROM sqlite_stat4`.execute(db);
    if (!samples.rows[0]?.rows) return;
    await sql.raw("DELETE FROM sqlite_stat4").execute(db);
    await sql.raw("ANALYZE sqlite_schema").execute(db);
    log.info({ samples: samples.rows[0].rows }, "query planner: sqlite_stat4 samples dropped");
  } catch (error) {
    log.error({ error: (error as Error).message }, "query planner statistics not updated");
  }
}

/**
 * Registered by startup.server.ts: statistics at start (without sqlite_stat4's samples), then every ten
 * minutes (a no-op unless the data changed a lot).
 */
export const plannerStatsTask = {
  start: async () => {
    await dropValueSamples();
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
