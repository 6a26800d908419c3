import { sqlite } from "./database.server";

// Without statistics SQLite's planner may count a search over a large portfolio by walking the price
// index and looking every row up (hundreds of milliseconds at 100,000 domains) instead of scanning the
// table (tens). `PRAGMA optimize` gathers statistics only where the data changed a lot since the last
// run; analysis_limit keeps each run to milliseconds.
const INTERVAL_MS = 10 * 60 * 1000;
const ANALYZE_UNANALYZED_TABLES = 0x10002;
let timer: ReturnType<typeof setInterval> | undefined;

function optimize(mask?: number): void {
  if (!sqlite.open) return;
  try {
    sqlite.pragma("analysis_limit = 1000");
    sqlite.pragma(mask === undefined ? "optimize" : `optimize = ${mask}`);
  } catch (error) {
    console.error(`query planner statistics not updated: ${(error as Error).message}`);
  }
}

/** Registered by startup.server.ts: statistics at start, then every ten minutes (a no-op unless the data changed a lot). */
export const plannerStatsTask = {
  start: () => {
    optimize(ANALYZE_UNANALYZED_TABLES);
    timer = setInterval(() => optimize(), INTERVAL_MS);
    timer.unref();
  },
  stop: () => {
    if (timer) clearInterval(timer);
    timer = undefined;
  },
};
