// Fixed-window limits per key (e.g. "login-ip:1.2.3.4"), counted in a store shared by every process when
// the app runs as several (rate-limit-store.server.ts: the database), or in this process's memory.
import {
  createDatabaseStore,
  createMemoryStore,
  defaultStoreKind,
  type RateLimitStore,
} from "./rate-limit-store.server";
import { nowMs } from "../runtime/clock.server";

export interface RateLimit {
  /** Counts one attempt; false when the key is over its limit for the current window. */
  hit(key: string): Promise<boolean>;
  /** True when the key is already over its limit (without counting an attempt). */
  isLimited(key: string): Promise<boolean>;
  reset(key: string): Promise<void>;
  /** Takes back one attempt counted by `hit` (an attempt that turned out to be allowed, e.g. a good password). */
  undo(key: string): Promise<void>;
  /** Seconds until the key's window ends, for a Retry-After header. */
  retryAfterSeconds(key: string): Promise<number>;
}

let sharedStore: RateLimitStore | undefined;
function defaultStore(): RateLimitStore {
  return (sharedStore ??= defaultStoreKind() === "database" ? createDatabaseStore() : createMemoryStore());
}

/**
 * `name` keeps two limits' keys apart in a shared store (the same address may be counted by several).
 * `store`: where to count; the default follows RATE_LIMIT_STORE (app/server/runtime/env.server.ts).
 */
export function createRateLimit(options: {
  name: string;
  limit: number | (() => number);
  windowMs: number;
  store?: RateLimitStore;
}): RateLimit {
  const store = () => options.store ?? defaultStore();
  const keyOf = (key: string) => `${options.name}:${key}`;
  // A limit may be a setting read at each attempt (e.g. MAX_PAYMENTS_PER_ADDRESS_PER_HOUR).
  const limit = () => (typeof options.limit === "function" ? options.limit() : options.limit);
  return {
    async hit(key) {
      const window = await store().hit(keyOf(key), options.windowMs);
      return window.count <= limit();
    },
    async isLimited(key) {
      const window = await store().peek(keyOf(key));
      return window !== undefined && window.count >= limit();
    },
    reset: (key) => store().reset(keyOf(key)),
    undo: (key) => store().undo(keyOf(key)),
    async retryAfterSeconds(key) {
      const window = await store().peek(keyOf(key));
      return window ? Math.max(1, Math.ceil((window.resetAt - nowMs()) / 1000)) : 0;
    },
  };
}
