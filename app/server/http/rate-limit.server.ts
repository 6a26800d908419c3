// In-memory fixed-window limits: enough for one process. Keys are e.g. "login-ip:1.2.3.4".
import { nowMs } from "../runtime/clock.server";

interface Window {
  count: number;
  resetAt: number;
}

export interface RateLimit {
  /** Counts one attempt; false when the key is over its limit for the current window. */
  hit(key: string): boolean;
  /** True when the key is already over its limit (without counting an attempt). */
  isLimited(key: string): boolean;
  reset(key: string): void;
  /** Takes back one attempt counted by `hit` (an attempt that turned out to be allowed, e.g. a good password). */
  undo(key: string): void;
  /** Seconds until the key's window ends, for a Retry-After header. */
  retryAfterSeconds(key: string): number;
}

export function createRateLimit(options: { limit: number; windowMs: number; maxKeys?: number }): RateLimit {
  const windows = new Map<string, Window>();
  const maxKeys = options.maxKeys ?? 100_000;

  function current(key: string): Window | undefined {
    const window = windows.get(key);
    if (window && window.resetAt <= nowMs()) {
      windows.delete(key);
      return undefined;
    }
    return window;
  }

  return {
    hit(key) {
      const window = current(key);
      if (!window) {
        // Bounded memory: a flood of new keys evicts the oldest first.
        if (windows.size >= maxKeys) windows.delete(windows.keys().next().value!);
        windows.set(key, { count: 1, resetAt: nowMs() + options.windowMs });
        return options.limit >= 1;
      }
      window.count += 1;
      return window.count <= options.limit;
    },
    isLimited(key) {
      const window = current(key);
      return window !== undefined && window.count >= options.limit;
    },
    reset(key) {
      windows.delete(key);
    },
    undo(key) {
      const window = current(key);
      if (window && window.count > 0) window.count -= 1;
    },
    retryAfterSeconds(key) {
      const window = current(key);
      return window ? Math.max(1, Math.ceil((window.resetAt - nowMs()) / 1000)) : 0;
    },
  };
}

/**
 * The client's address: server.ts works it out once per request from the socket and the X-Forwarded-For
 * hops of the proxies TRUST_PROXY trusts (app/server/http/proxy.server.ts) and replaces any header of
 * this name a client sent.
 */
export function clientIp(request: Request): string {
  return request.headers.get("x-real-client-ip") ?? "unknown";
}
