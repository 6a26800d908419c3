// The content version (migration 0030: triggers bump it on every write a public page shows, from any
// process) kept in memory, so a page cache hit needs no query (issue 27):
// - this process's own writes: read again on the writing connection when they commit, before the
//   writer goes on (database.server.ts, onCommittedWrite), so an admin's change shows on the next page;
// - other processes' writes, on SQLite: PRAGMA data_version (a counter in shared memory that changes when
//   another connection commits; no table is read) is compared at most once a millisecond (SQLITE_CHECK_MS),
//   and the version read again when it moved; on PostgreSQL: a NOTIFY on content_changed (changes.server.ts)
//   marks the memory unconfirmed at once and it is read again;
// - a safety net (a notification lost, the LISTEN connection down; on SQLite inside this process's own
//   transaction): the version is read again every CHECK_INTERVAL_MS on PostgreSQL, and on SQLite
//   data_version is also polled every SQLITE_POLL_MS with a full read every second.
// Without an exact check the memory is trusted only while a read that started within MAX_AGE_MS confirmed
// it; past that (the database slow or away, timers late) callers read the database as before. So a page
// served from memory is at most MAX_AGE_MS behind another process's write (on PostgreSQL as a rule the
// notification's delivery; on SQLite a millisecond), and never behind this process's own.
import { log } from "../runtime/log.server";
import { oneReadAtATime, watchDatabaseChanges } from "./changes.server";
import { isDatabaseOpen, onCommittedWrite, sqliteConnection } from "./database.server";
import { compiledOnce } from "./dialect.server";

const CHECK_INTERVAL_MS = 250;
const SQLITE_POLL_MS = 50;
/** How long a data_version comparison holds on SQLite: a page is at most this far behind another process. */
const SQLITE_CHECK_MS = 1;
const SQLITE_READ_EVERY_MS = 1_000;
const MAX_AGE_MS = 750;

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

/** SQLite: PRAGMA data_version, and its value before the last completed read of the version. */
let dataVersion: { get: () => unknown } | undefined;
let seen: unknown;

/** SQLite's data_version now, or undefined (PostgreSQL, inside this process's transaction, connection busy). */
function currentDataVersion(): unknown {
  if (!dataVersion || !sqliteConnection?.open || sqliteConnection.inTransaction) return undefined;
  try {
    return dataVersion.get();
  } catch {
    return undefined;
  }
}

/** Reads the version from the database (and remembers it). */
async function readFromDatabase(): Promise<number> {
  const startedAt = performance.now();
  // Taken before the read: the version read is at least as new as this.
  const before = currentDataVersion();
  reads += 1;
  const rows = await readVersion([1]);
  const version = Number(rows[0]?.version ?? 0);
  if (running) {
    learn(version, startedAt);
    if (before !== undefined) seen = before;
  }
  return version;
}

/**
 * On SQLite: "exact" when no other connection committed since `known` was read (PRAGMA data_version, a
 * counter in shared memory: no table is read), "changed" when one did, "unknown" inside this process's own
 * transaction or while the connection is busy streaming.
 */
let checkSqlite: (() => "exact" | "changed" | "unknown") | undefined;

/** The version when memory has it confirmed (no query), else undefined. */
export function knownContentVersion(): number | undefined {
  if (!running) return undefined;
  const sqlite = checkSqlite?.();
  if (sqlite === "exact") return known;
  if (sqlite === "changed") return undefined;
  return performance.now() - confirmedAt <= MAX_AGE_MS ? known : undefined;
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
    dataVersion = connection.prepare("PRAGMA data_version").pluck();
    let lastRead = performance.now();
    await readFromDatabase();
    // Compared at most once a millisecond: under load a check per request cost a fifth of a hit's CPU.
    let exactUntil = Number.NEGATIVE_INFINITY;
    checkSqlite = () => {
      const now = performance.now();
      if (now < exactUntil) return "exact";
      const current = currentDataVersion();
      if (current === undefined) return "unknown";
      if (current === seen) {
        exactUntil = now + SQLITE_CHECK_MS;
        return "exact";
      }
      // Another connection committed: nothing from memory until the version is read again.
      if (!reader.busy()) {
        lastRead = invalidatedAt = performance.now();
        confirmedAt = Number.NEGATIVE_INFINITY;
      }
      void refresh();
      return "changed";
    };
    timer = setInterval(() => {
      if (!isDatabaseOpen() || reader.busy()) return;
      const checkedAt = performance.now();
      const current = currentDataVersion();
      if (current === undefined) return;
      if (current !== seen || checkedAt - lastRead >= SQLITE_READ_EVERY_MS) {
        lastRead = checkedAt;
        void refresh();
      } else {
        // No other connection committed since the last read, and this one's commits are told at once.
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
  checkSqlite = undefined;
  dataVersion = undefined;
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
 * Values computed from the content, remembered by key while the content version stays what it was when
 * they were asked for: for values made only from what the version's triggers watch (public columns,
 * categories, settings). `remembered(key, load)` shares one load among concurrent callers, forgets a
 * failed one, and forgets all when the version moves on or `max` keys are held.
 */
export function perContentVersionMemo<V>(max = 10_000): (key: string, load: () => Promise<V>) => Promise<V> {
  const remembered = new Map<string, Promise<V>>();
  let rememberedAt = -1;
  return async (key, load) => {
    const version = await currentContentVersion();
    // Versions only grow: a caller that read an older one neither clears nor fills what the newer one holds.
    if (version > rememberedAt) {
      remembered.clear();
      rememberedAt = version;
    }
    if (version !== rememberedAt) return load();
    let value = remembered.get(key);
    if (!value) {
      if (remembered.size >= max) remembered.clear();
      const loading = load();
      remembered.set(key, loading);
      loading.catch(() => {
        if (remembered.get(key) === loading) remembered.delete(key);
      });
      value = loading;
    }
    return value;
  };
}

/** One value computed from the content (a count a page offers, a copy of the filter columns): perContentVersionMemo with one key. */
export function perContentVersion<T>(load: () => Promise<T>): () => Promise<T> {
  const remembered = perContentVersionMemo<T>(1);
  return () => remembered("", load);
}
