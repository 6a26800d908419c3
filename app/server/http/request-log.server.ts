// One JSON line per request. Never logs bodies, cookies, authorization headers or secret-looking query values.
import { requestLog, type Logger } from "../runtime/log.server";

const SECRET_QUERY_KEY = /pass|secret|token|key|card|cvc|cvv|session|auth|code|email|phone|sig|nonce|csrf/i;
const MAX_LOGGED_PATH = 512;

/** The path with every secret-looking query value replaced by "[redacted]". */
export function loggablePath(originalUrl: string): string {
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

/** One line per response (LOG_REQUESTS), through the request logger (written asynchronously). */
export function logRequest(entry: RequestLogEntry, logger: Logger = requestLog): void {
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
