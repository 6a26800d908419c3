// One place for "now", so tests can run the server with a shifted clock (TEST_CLOCK_OFFSET_MS).
const offsetMs = Number(process.env.TEST_CLOCK_OFFSET_MS ?? 0) || 0;

export function now(): Date {
  return new Date(Date.now() + offsetMs);
}

export function nowIso(): string {
  return now().toISOString();
}
