// Values computed from the content (counts a page offers, a copy of the filter columns), kept until the
// content version (page-cache.server.ts) moves on.
import { currentContentVersion } from "../http/page-cache.server";

/** A value computed from the content, recomputed when the content version (page-cache.server.ts) moves on. */
export function perContentVersion<T>(load: () => Promise<T>): () => Promise<T> {
  let cached: { version: number; value: Promise<T> } | undefined;
  return async () => {
    const version = await currentContentVersion();
    if (cached?.version !== version) {
      const value = load();
      cached = { version, value };
      value.catch(() => {
        if (cached?.value === value) cached = undefined;
      });
    }
    return cached.value;
  };
}
