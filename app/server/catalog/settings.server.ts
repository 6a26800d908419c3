import { centsToDollarText, dollarsToCents } from "../../lib/money";
import { nowIso } from "../runtime/clock.server";
import { isDatabaseOpen, lazyStatement } from "../db/database.server";
import { watchDatabaseChanges } from "../db/changes.server";
import { publishFee } from "./events.server";

export const DEFAULT_INQUIRY_FEE_CENTS = 1999;
const FEE_KEY = "inquiry_fee";

const readSetting = lazyStatement<[string], { value: string }>("SELECT value FROM settings WHERE key = ?");
const upsertSetting = lazyStatement<[string, string, string, string]>(
  `INSERT INTO settings (key, value, created_at, updated_at) VALUES (?, ?, ?, ?)
   ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
);

export function getSetting(key: string): string | null {
  return readSetting().get(key)?.value ?? null;
}

export function setSetting(key: string, value: string): void {
  const timestamp = nowIso();
  upsertSetting().run(key, value, timestamp, timestamp);
}

/** The fee in cents; 19.99 when the row is missing or unreadable. */
export function getInquiryFeeCents(): number {
  const stored = getSetting(FEE_KEY);
  return (stored === null ? null : dollarsToCents(stored)) ?? DEFAULT_INQUIRY_FEE_CENTS;
}

let lastPublishedFeeCents: number | null = null;

/** The one way to change the fee: writes the setting and tells every open page. */
export function setInquiryFee(cents: number): void {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError("The fee must be a whole number of cents, 0 or more");
  setSetting(FEE_KEY, centsToDollarText(cents));
  announceFee(cents);
}

function announceFee(cents: number): void {
  if (cents === lastPublishedFeeCents) return;
  lastPublishedFeeCents = cents;
  publishFee({ cents });
}

/** Another process (the set-fee script, a second server) may write the fee: its pages follow too. */
let stopWatcher: (() => void) | undefined;
export function watchForExternalFeeChanges(intervalMs = 100): void {
  if (stopWatcher) return;
  lastPublishedFeeCents = getInquiryFeeCents();
  stopWatcher = watchDatabaseChanges(() => {
    if (isDatabaseOpen()) announceFee(getInquiryFeeCents());
  }, intervalMs);
}

export function stopWatchingFee(): void {
  stopWatcher?.();
  stopWatcher = undefined;
}
