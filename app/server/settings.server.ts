import { centsToDollarText, dollarsToCents } from "../lib/money";
import { nowIso } from "./clock.server";
import { lazyStatement, sqlite } from "./db.server";
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

/**
 * Another process (the set-fee script, a second server) may write the fee. SQLite's data_version
 * changes when any other connection commits, so polling it costs one pragma call and no query.
 */
let watcher: NodeJS.Timeout | undefined;
export function watchForExternalFeeChanges(intervalMs = 100): void {
  if (watcher) return;
  lastPublishedFeeCents = getInquiryFeeCents();
  let lastVersion = sqlite.pragma("data_version", { simple: true });
  watcher = setInterval(() => {
    if (!sqlite.open) return;
    const version = sqlite.pragma("data_version", { simple: true });
    if (version === lastVersion) return;
    lastVersion = version;
    announceFee(getInquiryFeeCents());
  }, intervalMs);
  watcher.unref();
}

export function stopWatchingFee(): void {
  clearInterval(watcher);
  watcher = undefined;
}
