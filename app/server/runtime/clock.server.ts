// One place for "now": reply windows, refund deadlines, leases and codes all ask here, so a test can move
// the app's time without waiting. Production reads the real clock.

// Tests only: TEST_CLOCK_OFFSET_MS moves this process's clock by a fixed offset for its whole life (a test
// that needs a server at a later time starts one so, on the same database). Unset in production.
const offsetMs = Number(process.env.TEST_CLOCK_OFFSET_MS ?? 0) || 0;

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
  return Date.now() + offsetMs;
}

export function nowIso(): string {
  return now().toISOString();
}
