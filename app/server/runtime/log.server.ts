// The one logger: JSON lines on stdout (pino), each with time, level and msg, at LOG_LEVEL and above
// (default info). Development at a terminal (NODE_ENV=development, a TTY) prints them through pino-pretty. Request
// log lines (LOG_REQUESTS) go through an asynchronous, batching destination: a busy server does not wait for them.
import { createRequire } from "node:module";
import pino, { type Logger } from "pino";

export type { Logger };

const LEVELS = new Set(["fatal", "error", "warn", "info", "debug", "trace", "silent"]);
// Pretty lines for a developer at a terminal; JSON when the output goes to a file or another program.
const development = process.env.NODE_ENV === "development" && process.stdout.isTTY === true;

/** LOG_LEVEL, or info when it is unset or not a level (env.server.ts reports a bad value). */
export function logLevel(value = process.env.LOG_LEVEL): string {
  const level = value?.trim().toLowerCase();
  return level && LEVELS.has(level) ? level : "info";
}

export const logOptions: pino.LoggerOptions = {
  level: logLevel(),
  base: undefined,
  timestamp: pino.stdTimeFunctions.isoTime,
  formatters: { level: (label) => ({ level: label }) },
  serializers: { error: pino.stdSerializers.err },
};

function prettyStream(): pino.DestinationStream | null {
  if (!development) return null;
  try {
    // Resolved at run time: a development dependency, absent from a production install.
    const pretty = createRequire(import.meta.url)("pino-pretty") as (options: object) => pino.DestinationStream;
    return pretty({ colorize: true, sync: true, singleLine: true });
  } catch {
    return null;
  }
}

const pretty = prettyStream();

/** Start-up, shutdown, background work and errors: written at once (a line before an exit is not lost). */
export const log: Logger = pino(logOptions, pretty ?? pino.destination({ dest: 1, sync: true }));

/** Request lines are written in batches of REQUEST_LOG_BATCH characters, and at least every REQUEST_LOG_FLUSH_MS. */
const REQUEST_LOG_BATCH = 4096;
const REQUEST_LOG_FLUSH_MS = 1_000;

// One write per line cost a busy server a tenth of its time (a cached page's profile, issue 27): lines are
// gathered (writeRequestLine) and written a few kilobytes at a time, and what waits is written within a
// second.
const requestDestination = pretty ? null : pino.destination({ dest: 1, sync: false });
if (requestDestination) {
  setInterval(() => {
    try {
      writePendingRequestLines();
      requestDestination.flush();
    } catch {
      // stdout is gone: nothing to write to
    }
  }, REQUEST_LOG_FLUSH_MS).unref();
}

/** The per-request log lines (LOG_REQUESTS), written asynchronously. */
export const requestLog: Logger = requestDestination ? pino(logOptions, requestDestination) : log;

/**
 * Writes a request line made by the caller (request-log.server.ts: the same JSON pino writes, built
 * without its generic serializer); false when there is no batching destination (development's pretty
 * output), so the caller logs through `requestLog` instead.
 */
export function writeRequestLine(line: string): boolean {
  if (!requestDestination) return false;
  // Gathered here and handed over a batch at a time: the destination measures what it holds in bytes on
  // every write (sonic-boom), a fiftieth of a cached page's CPU when written a line at a time.
  pendingRequestLines += line;
  if (pendingRequestLines.length >= REQUEST_LOG_BATCH) writePendingRequestLines();
  return true;
}

let pendingRequestLines = "";

/** Hands the gathered request lines to the destination (before a line written through pino, to keep the order). */
export function writePendingRequestLines(): void {
  if (!pendingRequestLines || !requestDestination) return;
  const lines = pendingRequestLines;
  pendingRequestLines = "";
  requestDestination.write(lines);
}

/** Writes out buffered request lines: before the process exits. */
export function flushLogs(): void {
  try {
    writePendingRequestLines();
    requestDestination?.flushSync();
  } catch {
    // nothing buffered, or stdout is gone
  }
}
