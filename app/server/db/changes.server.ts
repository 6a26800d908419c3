// "Another process wrote to the database": the signal behind the live fee of every process (a fee set
// through one server, or the set-fee script, reaches the pages open on every other). SQLite has no
// notifications, but its data_version changes when another connection commits, so a poll costs one
// pragma and no query. PostgreSQL tells listeners itself: migration 0030's triggers NOTIFY the
// `content_changed` channel on every write to what public pages show.
import pg from "pg";
import { env } from "../runtime/env.server";
import { log } from "../runtime/log.server";
import { isDatabaseOpen, sqliteConnection } from "./database.server";

export const CHANGES_CHANNEL = "content_changed";
export const LISTENER_NAME = "domains-change-listener";
const RECONNECT_DELAY_MS = 1_000;
const MAX_RECONNECT_DELAY_MS = 30_000;
/** Idle time before the kernel's first keepalive probe on the LISTEN connection. */
const KEEPALIVE_DELAY_MS = 10_000;

type Stop = () => void;

/**
 * For a watcher that reads what changed: runs `read` one call at a time, so an older answer never lands
 * after a newer one; a call made while one runs makes it run once more after it.
 */
export function oneReadAtATime(read: () => Promise<void>, onError: (error: unknown) => void) {
  let reading = false;
  let readAgain = false;
  const run = async (): Promise<void> => {
    if (reading) {
      readAgain = true;
      return;
    }
    reading = true;
    try {
      do {
        readAgain = false;
        await read();
      } while (readAgain);
    } catch (error) {
      onError(error);
    } finally {
      reading = false;
    }
  };
  return { run, busy: () => reading };
}

const watchers = new Set<() => void>();
let stopWatching: Stop | undefined;

function tellWatchers(): void {
  for (const watcher of watchers) {
    try {
      watcher();
    } catch (error) {
      log.error({ error }, "a database change watcher failed");
    }
  }
}

/**
 * Calls `onChange` (at most every `intervalMs` on SQLite; at once on PostgreSQL) after other processes write.
 * Every watcher of the process shares one poll or one LISTEN connection (made by the first; the first's
 * interval holds).
 */
export function watchDatabaseChanges(onChange: () => void, intervalMs = 100): Stop {
  watchers.add(onChange);
  stopWatching ??= sqliteConnection
    ? pollDataVersion(sqliteConnection, tellWatchers, intervalMs)
    : listenForNotifications(tellWatchers);
  return () => {
    watchers.delete(onChange);
    if (watchers.size > 0) return;
    stopWatching?.();
    stopWatching = undefined;
  };
}

function pollDataVersion(
  connection: NonNullable<typeof sqliteConnection>,
  onChange: () => void,
  intervalMs: number,
): Stop {
  Object.assign(status, { via: "data_version", listening: true, lostAt: null });
  let lastVersion = connection.pragma("data_version", { simple: true });
  const timer = setInterval(() => {
    if (!isDatabaseOpen() || !connection.open) return;
    const version = connection.pragma("data_version", { simple: true });
    if (version === lastVersion) return;
    lastVersion = version;
    onChange();
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** For /healthz: how this process hears other processes' writes, and whether it hears them now. */
export interface ChangesStatus {
  via: "data_version" | "listen";
  listening: boolean;
  /** Since when the LISTEN connection has been down (null while it listens). */
  lostAt: string | null;
  /** Connections lost (and replaced) since start. */
  reconnects: number;
}

const status: ChangesStatus = { via: "data_version", listening: false, lostAt: null, reconnects: 0 };

export function changesStatus(): ChangesStatus {
  return { ...status };
}

/**
 * One dedicated connection LISTENs; once it listens (and again after each reconnect) onChange runs once,
 * for what it may have missed. A connection can die without a word (a NAT or firewall forgetting it, a
 * peer gone): TCP keepalive, and a `SELECT 1` on it every LISTEN_CHECK_INTERVAL_MS that must answer
 * within that time, find out; it is then replaced, retrying with backoff (1 s doubling to 30 s).
 */
function listenForNotifications(onChange: () => void): Stop {
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let check: NodeJS.Timeout | undefined;
  let delayMs = RECONNECT_DELAY_MS;
  Object.assign(status, { via: "listen", listening: false, lostAt: null });
  const connect = async () => {
    const next = new pg.Client({
      connectionString: env.DATABASE_URL,
      keepAlive: true,
      keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
      // Named, so an operator (and the tests) can tell it apart in pg_stat_activity.
      application_name: LISTENER_NAME,
    });
    client = next;
    next.on("notification", () => onChange());
    next.on("error", () => lose(next));
    next.on("end", () => lose(next));
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANGES_CHANNEL}`);
      if (client !== next) return;
      Object.assign(status, { listening: true, lostAt: null });
      delayMs = RECONNECT_DELAY_MS;
      check = setInterval(() => void checkAlive(next), env.LISTEN_CHECK_INTERVAL_MS);
      check.unref();
      // A change committed before LISTEN took effect (at start: after the caller's first read; after a
      // lost connection: while it was down) was not notified: look once.
      onChange();
    } catch {
      lose(next);
    }
  };
  /** The connection answers a query within the interval, or it is given up. */
  const checkAlive = async (current: pg.Client) => {
    let timer: NodeJS.Timeout | undefined;
    const silent = new Promise<"silent">((resolve) => {
      timer = setTimeout(() => resolve("silent"), env.LISTEN_CHECK_INTERVAL_MS);
      timer.unref();
    });
    const answer = current.query("SELECT 1").then(
      () => "answered" as const,
      () => "failed" as const,
    );
    const outcome = await Promise.race([answer, silent]);
    clearTimeout(timer);
    if (outcome !== "answered") lose(current);
  };
  const lose = (lost: pg.Client) => {
    if (stopped || client !== lost || retry) return;
    clearInterval(check);
    if (status.listening) status.reconnects += 1;
    if (status.lostAt === null) status.lostAt = new Date().toISOString();
    status.listening = false;
    log.error({ retryInMs: delayMs }, "database change listener lost; reconnecting");
    // A silent connection would not finish end(): its socket is closed at once.
    lost.end().catch(() => {});
    (lost as unknown as { connection?: { stream?: { destroy?: () => void } } }).connection?.stream?.destroy?.();
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, delayMs);
    retry.unref();
    delayMs = Math.min(delayMs * 2, MAX_RECONNECT_DELAY_MS);
  };
  void connect();
  return () => {
    stopped = true;
    clearTimeout(retry);
    clearInterval(check);
    status.listening = false;
    client?.end().catch(() => {});
  };
}
