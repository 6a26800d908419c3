// Waiting for an event instead of for time: a condition polled every few milliseconds until it holds or a
// deadline passes (then the test fails, naming what it waited for). The interval is how often to look,
// not how long to wait.

/**
 * Polls `check` (sync or async) every `intervalMs` until it returns a truthy value, and returns that value.
 * Throws `timed out waiting for <what>` after `timeoutMs`.
 */
export async function waitFor<T>(
  check: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  timeoutMs = 10_000,
  what = "condition",
  intervalMs = 25,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
