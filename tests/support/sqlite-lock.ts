// Whether a server is waiting for SQLite's write lock, which another connection holds. better-sqlite3 runs
// every statement on the server's main thread, and SQLite's busy handler sleeps there between tries
// (nanosleep); an idle Node main thread waits in epoll instead. Linux only: read from /proc.
import { readFileSync } from "node:fs";
import type { AppServer } from "./app-server";
import { waitFor } from "./wait";

/** nanosleep and clock_nanosleep, by architecture. */
const SLEEP_SYSCALLS: Record<string, number[]> = { x64: [35, 230], arm64: [101, 115] };

/** Whether the process's main thread is sleeping in a system call now (SQLite's busy handler, for a server). */
export function sleepingNow(pid: number): boolean {
  const syscall = Number(readFileSync(`/proc/${pid}/syscall`, "utf8").split(" ")[0]);
  const sleeps = SLEEP_SYSCALLS[process.arch];
  if (!sleeps) throw new Error(`no sleep system calls known for ${process.arch}`);
  return sleeps.includes(syscall);
}

/** Waits until `server` is waiting for the database's write lock (a statement is in SQLite's busy handler). */
export function untilWaitingForLock(server: Pick<AppServer, "process">, timeoutMs = 10_000): Promise<true> {
  return waitFor(() => sleepingNow(server.process.pid!), timeoutMs, "the server to wait for the write lock", 2);
}
