// One place for "now": reply windows, refund deadlines, leases and codes all ask here, so a test can move
// the app's time without waiting. Production reads the real clock.
import { readFileSync } from "node:fs";

const offsetMs = Number(process.env.TEST_CLOCK_OFFSET_MS ?? 0) || 0;

// Tests only: TEST_CLOCK_FILE names a file holding an extra offset in milliseconds, re-read at most
// every 20 ms, so a browser test can move a running server's clock (reply windows, refund deadlines)
// without a restart. Unset in production: now() is then plain Date.now() plus the fixed offset.
// Tests that call the app in process set the clock directly instead (setClockForTests).
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

/** Set only by tests that run the app in their own process (tests/support/in-process/clock.ts). */
let clockForTests: (() => number) | null = null;

/**
 * Tests only: what nowMs() answers from now on in this process (null: the real clock again). The app
 * never calls it; a test does, to move past a reply window or a code's expiry without sleeping.
 */
export function setClockForTests(clock: (() => number) | null): void {
  clockForTests = clock;
}

export function now(): Date {
  return new Date(nowMs());
}

export function nowMs(): number {
  if (clockForTests) return clockForTests();
  return Date.now() + offsetMs + currentFileOffset();
}

export function nowIso(): string {
  return now().toISOString();
}
