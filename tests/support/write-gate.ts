// Lining up two servers' writes for a race test: the test takes a lock their transactions need, sends the
// requests, waits until each server is waiting for that lock (its reads before the transaction done), then
// lets go. What the race decides is then decided inside the transactions, every run, not by luck of timing.
import Database from "better-sqlite3";
import pg from "pg";
import type { AppServer } from "./app-server";
import { untilWaitingForLock } from "./sqlite-lock";
import { waitFor } from "./wait";

export interface WriteGate {
  /**
   * Waits until `waiting` processes (on SQLite: each of `servers`, in its busy handler) wait for the lock.
   * On SQLite a server waits whole (better-sqlite3 blocks its main thread): give each server one request.
   */
  untilWaiting: (servers: AppServer[], waiting?: number) => Promise<void>;
  /** Lets the waiting transactions go, in the order they came (nothing the gate held is written). */
  open: () => Promise<void>;
}

/**
 * Holds the writes to `table`'s row `id` in the database of `server` (and of every server on it): on
 * SQLite the write lock of the whole file (BEGIN IMMEDIATE), on PostgreSQL that row (FOR UPDATE).
 */
export async function closeWriteGate(server: AppServer, table: string, id: number): Promise<WriteGate> {
  if (server.database === "sqlite") {
    const holder = new Database(server.dbPath);
    holder.exec("BEGIN IMMEDIATE");
    return {
      untilWaiting: async (servers) => {
        for (const each of servers) await untilWaitingForLock(each);
      },
      open: async () => {
        holder.exec("ROLLBACK");
        holder.close();
      },
    };
  }
  const holder = new pg.Client({ connectionString: server.env.DATABASE_URL });
  const watcher = new pg.Client({ connectionString: server.env.DATABASE_URL });
  await Promise.all([holder.connect(), watcher.connect()]);
  await holder.query("BEGIN");
  await holder.query(`SELECT id FROM ${table} WHERE id = $1 FOR UPDATE`, [id]);
  return {
    untilWaiting: async (servers, waiting = servers.length) => {
      const blocked = async () => {
        // Each query its own transaction, so pg_stat_activity is read afresh. The database is the test's own.
        const { rows } = await watcher.query(
          "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
        );
        return Number(rows[0].n) >= waiting;
      };
      await waitFor(blocked, 10_000, `${waiting} transactions to wait for the ${table} row`, 5);
    },
    open: async () => {
      await holder.query("ROLLBACK");
      await Promise.all([holder.end(), watcher.end()]);
    },
  };
}
