// The app's clock in an in-process test: real time plus an offset the test moves (setClockForTests in
// app/server/runtime/clock.server.ts), set back after each test. Moving it is immediate: no sleep, no file.
import { afterEach } from "vitest";
import { setClockForTests } from "../../../app/server/runtime/clock.server";

export const MINUTE_MS = 60_000;
export const DAY_MS = 24 * 60 * MINUTE_MS;

export function useTestClock() {
  let offsetMs = 0;
  const set = (offset: number) => {
    offsetMs = offset;
    setClockForTests(offset === 0 ? null : () => Date.now() + offsetMs);
  };
  afterEach(() => set(0));
  return {
    get offsetMs() {
      return offsetMs;
    },
    /** The app's now() is `offset` ms ahead of the real clock from here on. */
    set,
    advance(ms: number) {
      set(offsetMs + ms);
    },
  };
}
