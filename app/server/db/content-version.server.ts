// The content version (migration 0030: triggers bump it on every write a public page shows, from any
// process) kept in memory, so a page cache hit needs no database round trip (issue 27):
// - this process's own writes: read again on the writing connection when they commit, before the
//   writer goes on (database.server.ts, onCommittedWrite), so an admin's change shows on the next page;
// - other processes' writes, on SQLite: PRAGMA data_version (it changes when another connection commits)
//   is compared every SQLITE_POLL_MS, the version read again when it moved; on PostgreSQL: a NOTIFY on
//   content_changed (changes.server.ts) marks the memory unconfirmed at once and reads it again;
// - a safety net (a notification lost, the LISTEN connection down): the version is read again every
//   CHECK_INTERVAL_MS on PostgreSQL, every second on SQLite.
// The memory is trusted only while a check that started within MAX_AGE_MS confirmed it; past that (the
// database slow or away, timers late) callers read the database as before. So a page served from memory
// is at most MAX_AGE_MS behind another process's write (on SQLite SQLITE_POLL_MS, on PostgreSQL the
// notification's delivery, as a rule), and never behind this process's own.
import { log } from "../runtime/log.server";
import { oneReadAtATime, watchDatabaseChanges } from "./changes.server";
import { isDatabaseOpen, onCommittedWrite, sqliteConnection } from "./database.server";
import { compiledOnce } from "./dialect.server";

export const CHECK_INTERVAL_MS = 250;
export const SQLITE_POLL_MS = 50;
const SQLITE_READ_EVERY_MS = 1_000;
export const MAX_AGE_MS = 750;

// Compiled once: it costs no query building.
const readVersion = compiledOnce<{ version: number }, [number]>((executor) =>
  executor.selectFrom("content_version").select("version").where("id", "=", 1),
);

let known = -1;
/** performance.now() when the read that confirmed `known` started (-Infinity: never). */
let confirmedAt = Number.NEGATIVE_INFINITY;
/** When another process was last heard to write: a read that started before it confirms nothing. */
let invalidatedAt = Number.NEGATIVE_INFINITY;
let running = false;
let stopWatcher: (() => void) | undefined;
let timer: NodeJS.Timeout | undefined;
let reads = 0;

/** Versions only grow: an answer older than what is known changes nothing (a read that raced a write). */
function learn(version: number, startedAt: number): void {
  if (version > known) known = version;
  if (startedAt > confirmedAt && startedAt >= invalidatedAt) confirmedAt = startedAt;
}

/** Reads the version from the database (and remembers it). */
async function readFromDatabase(): Promise<number> {
  const startedAt = performance.now();
  reads += 1;
  const rows = await readVersion([1]);
  const version = Number(rows[0]?.version ?? 0);
  if (running) learn(version, startedAt);
  return version;
}

/** The version when memory has it confirmed recently enough (no database), else undefined. */
export function knownContentVersion(): number | undefined {
  return running && performance.now() - confirmedAt <= MAX_AGE_MS ? known : undefined;
}

/** The current content version: from memory when fresh, else one primary-key read of a one-row table. */
export async function currentContentVersion(): Promise<number> {
  return knownContentVersion() ?? readFromDatabase();
}

// One read at a time from the timer and the watcher; a change heard meanwhile reads again after it.
const reader = oneReadAtATime(
  async () => {
    if (isDatabaseOpen() && running) await readFromDatabase();
  },
  // The next check tries again; meanwhile the memory ages out and callers read the database themselves.
  (error) => log.debug({ error: (error as Error).message }, "content version check failed"),
);
const refresh = reader.run;

/** Starts keeping the version in memory (at start-up, after the migrations). */
export async function startContentVersion(): Promise<void> {
  if (running) return;
  running = true;
  onCommittedWrite((version) => learn(version, performance.now()));
  if (sqliteConnection) {
    const connection = sqliteConnection;
    const dataVersion = connection.prepare("PRAGMA data_version").pluck();
    let seen = dataVersion.get();
    let lastRead = performance.now();
    await readFromDatabase();
    timer = setInterval(() => {
      // Inside this process's own transaction the connection sees its uncommitted writes: wait for the end.
      if (!isDatabaseOpen() || !connection.open || connection.inTransaction || reader.busy()) return;
      const checkedAt = performance.now();
      const current = dataVersion.get();
      if (current !== seen || checkedAt - lastRead >= SQLITE_READ_EVERY_MS) {
        seen = current;
        lastRead = checkedAt;
        void refresh();
      } else {
        // No other connection committed since the last check, and this one's commits are told at once.
        learn(known, checkedAt);
      }
    }, SQLITE_POLL_MS);
  } else {
    await readFromDatabase();
    stopWatcher = watchDatabaseChanges(() => {
      // Another process wrote: nothing from memory until the version is read again.
      invalidatedAt = performance.now();
      confirmedAt = Number.NEGATIVE_INFINITY;
      void refresh();
    });
    timer = setInterval(() => void refresh(), CHECK_INTERVAL_MS);
  }
  timer.unref();
}

export function stopContentVersion(): void {
  running = false;
  onCommittedWrite(undefined);
  stopWatcher?.();
  stopWatcher = undefined;
  clearInterval(timer);
}

/** For /healthz: how the version is kept. */
export function contentVersionStatus() {
  const fresh = knownContentVersion() !== undefined;
  return {
    keptIn: fresh ? "memory" : "database",
    otherProcessesVia: sqliteConnection ? "data_version" : "listen",
    checkEveryMs: sqliteConnection ? SQLITE_POLL_MS : CHECK_INTERVAL_MS,
    staleAtMostMs: MAX_AGE_MS,
    version: known,
    reads,
  };
}

/**
 * `load(key)` remembered while the content version stays what it was when computed: for a value made only
 * from what the version's triggers watch (public columns, categories, settings). Forgotten when the version
 * moves on, or all at once when `max` keys are held.
 */
export function perContentVersionMemo<V>(load: (key: string) => Promise<V>, max = 10_000): (key: string) => Promise<V> {
  const remembered = new Map<string, V>();
  let rememberedAt = -1;
  return async (key) => {
    const version = await currentContentVersion();
    // Versions only grow: a caller that read an older one neither clears nor fills what the newer one holds.
    if (version > rememberedAt || remembered.size >= max) {
      remembered.clear();
      rememberedAt = version;
    }
    if (version === rememberedAt && remembered.has(key)) return remembered.get(key)!;
    const value = await load(key);
    if (version === rememberedAt) remembered.set(key, value);
    return value;
  };
}
