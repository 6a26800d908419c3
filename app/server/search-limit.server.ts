import { createRateLimit } from "./rate-limit.server";

// A search that is not in the page cache scans the names index; 30 a minute is far above what a person
// types, and keeps one client from keeping the database busy with random terms.
export const SEARCHES_PER_MINUTE = 30;
export const searchRateLimit = createRateLimit({ limit: SEARCHES_PER_MINUTE, windowMs: 60 * 1000 });
