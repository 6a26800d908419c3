// One JSON line per request. Never logs bodies, cookies, authorization headers or secret-looking query values.
import { requestLog, writePendingRequestLines, writeRequestLine, type Logger } from "../runtime/log.server";

// inquiry, edit, payment_intent: an inquiry's or a payment's reference, which opened its page to whoever read the log.
const SECRET_QUERY_KEY =
  /pass|secret|token|key|card|cvc|cvv|session|auth|code|email|phone|sig|nonce|csrf|inquiry|edit|payment_intent/i;
const MAX_LOGGED_PATH = 512;

/** The path with every secret-looking query value replaced by "[redacted]". */
export function loggablePath(originalUrl: string): string {
  // Most requests have no query: nothing to redact.
  if (!originalUrl.includes("?") && originalUrl.length <= MAX_LOGGED_PATH) return originalUrl;
  const [pathname = "", query] = originalUrl.split(/\?(.*)/s, 2);
  let logged = pathname;
  if (query) {
    const params = new URLSearchParams(query);
    const safe = new URLSearchParams();
    for (const [key, value] of params) safe.append(key, SECRET_QUERY_KEY.test(key) ? "[redacted]" : value);
    logged += `?${safe.toString()}`;
  }
  return logged.length > MAX_LOGGED_PATH ? `${logged.slice(0, MAX_LOGGED_PATH)}...` : logged;
}

export interface RequestLogEntry {
  requestId: string;
  method: string;
  originalUrl: string;
  status: number;
  durationMs: number;
  aborted: boolean;
}

// The time as pino's isoTime writes it, made once per millisecond (a busy server logs several lines in one).
let isoTimeAt = -1;
let isoTime = "";
function isoTimeNow(): string {
  const now = Date.now();
  if (now !== isoTimeAt) {
    isoTimeAt = now;
    isoTime = new Date(now).toISOString();
  }
  return isoTime;
}

/**
 * The info line of a response as pino writes it (log.server.ts logOptions: level, time, the fields, msg),
 * made directly: pino's generic serialization was most of what logging cost a cached page.
 */
export function requestLine(entry: RequestLogEntry): string {
  return (
    `{"level":"info","time":"${isoTimeNow()}","requestId":${JSON.stringify(entry.requestId)},` +
    `"method":${JSON.stringify(entry.method.slice(0, 16))},"path":${JSON.stringify(loggablePath(entry.originalUrl))},` +
    `"status":${entry.status},"durationMs":${Math.round(entry.durationMs * 10) / 10}` +
    `${entry.aborted ? ',"aborted":true' : ""},"msg":"request"}\n`
  );
}

/** One line per response (LOG_REQUESTS), through the request logger (written asynchronously, in batches). */
export function logRequest(entry: RequestLogEntry, logger: Logger = requestLog): void {
  // The usual line (info, to the request log) is written as the JSON pino would write, made directly:
  // pino's generic serialization was most of what logging cost a cached page.
  if (
    logger === requestLog &&
    entry.status < 500 &&
    logger.isLevelEnabled("info") &&
    writeRequestLine(requestLine(entry))
  )
    return;
  writePendingRequestLines();
  const fields = {
    requestId: entry.requestId,
    method: entry.method.slice(0, 16),
    path: loggablePath(entry.originalUrl),
    status: entry.status,
    durationMs: Math.round(entry.durationMs * 10) / 10,
    ...(entry.aborted ? { aborted: true } : {}),
  };
  if (entry.status >= 500) logger.error(fields, "request");
  else logger.info(fields, "request");
}
