import { env } from "../runtime/env.server";
import { createRateLimit } from "./rate-limit.server";

// A search the page cache cannot answer scans the names index; 30 a minute (SEARCHES_PER_MINUTE) is far
// above what a person types, and keeps one client from keeping the database busy with random terms.
export const searchRateLimit = createRateLimit({ name: "search", limit: env.SEARCHES_PER_MINUTE, windowMs: 60 * 1000 });
