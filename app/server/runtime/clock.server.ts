// One place for "now", so tests can run the server with a shifted clock (TEST_CLOCK_OFFSET_MS).
import { readFileSync } from "node:fs";

const offsetMs = Number(process.env.TEST_CLOCK_OFFSET_MS ?? 0) || 0;

// Tests only: TEST_CLOCK_FILE names a file holding an extra offset in milliseconds, re-read at most
// every 20 ms, so a test can move a running server's clock (reply windows, refund deadlines) without
// a restart. Unset in production: now() is then plain Date.now() plus the fixed offset.
const clockFile = process.env.TEST_CLOCK_FILE?.trim() || null;
let fileOffsetMs = 0;
let fileReadAt = 0;

function currentFileOffset(): number {
  if (!clockFile) return 0;
  if (Date.now() - fileReadAt >= 20) {
    fileReadAt = Date.now();
    try {
      fileOffsetMs = Number(readFileSync(clockFile, "utf8").trim()) || 0;
    } catch {
      fileOffsetMs = 0;
    }
  }
  return fileOffsetMs;
}

export function now(): Date {
  return new Date(nowMs());
}

export function nowMs(): number {
  return Date.now() + offsetMs + currentFileOffset();
}

export function nowIso(): string {
  return now().toISOString();
}
