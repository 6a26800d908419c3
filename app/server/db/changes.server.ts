// "Another process wrote to the database": the signal behind the live fee of every process (a fee set
// through one server, or the set-fee script, reaches the pages open on every other). SQLite has no
// notifications, but its data_version changes when another connection commits, so a poll costs one
// pragma and no query. PostgreSQL tells listeners itself: migration 0030's triggers NOTIFY the
// `content_changed` channel on every write to what public pages show.
import pg from "pg";
import { env } from "../runtime/env.server";
import { isDatabaseOpen, sqliteConnection } from "./database.server";

export const CHANGES_CHANNEL = "content_changed";
const RECONNECT_DELAY_MS = 1_000;

type Stop = () => void;

/** Calls `onChange` (at most every `intervalMs` on SQLite; at once on PostgreSQL) after other processes write. */
export function watchDatabaseChanges(onChange: () => void, intervalMs = 100): Stop {
  return sqliteConnection ? pollDataVersion(sqliteConnection, onChange, intervalMs) : listenForNotifications(onChange);
}

function pollDataVersion(connection: NonNullable<typeof sqliteConnection>, onChange: () => void, intervalMs: number): Stop {
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

/** One dedicated connection LISTENs; once it listens (and again after each reconnect) onChange runs once, for what it may have missed. */
function listenForNotifications(onChange: () => void): Stop {
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const connect = async () => {
    const next = new pg.Client({ connectionString: env.DATABASE_URL });
    client = next;
    next.on("notification", () => onChange());
    next.on("error", () => scheduleReconnect(next));
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANGES_CHANNEL}`);
      // A change committed before LISTEN took effect (at start: after the caller's first read; after a
      // lost connection: while it was down) was not notified: look once.
      onChange();
    } catch {
      scheduleReconnect(next);
    }
  };
  const scheduleReconnect = (lost: pg.Client) => {
    if (stopped || client !== lost || retry) return;
    lost.end().catch(() => {});
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, RECONNECT_DELAY_MS);
    retry.unref();
  };
  void connect();
  return () => {
    stopped = true;
    clearTimeout(retry);
    client?.end().catch(() => {});
  };
}
