import { centsToDollarText, dollarsToCents } from "../../lib/money";
import { nowIso } from "../runtime/clock.server";
import { db, isDatabaseOpen } from "../db/database.server";
import { compiledOnce, type Executor } from "../db/dialect.server";
import { oneReadAtATime, watchDatabaseChanges } from "../db/changes.server";
import { publishFee } from "./events.server";
import { log } from "../runtime/log.server";

export const DEFAULT_INQUIRY_FEE_CENTS = 1999;
const FEE_KEY = "inquiry_fee";

// The fee is read on every domain page render: compiled once.
const readSetting = compiledOnce<{ value: string }, [string]>((executor) =>
  executor.selectFrom("settings").select("value").where("key", "=", ""),
);

export async function getSetting(key: string, executor: Executor = db): Promise<string | null> {
  return (await readSetting([key], executor))[0]?.value ?? null;
}

export async function setSetting(key: string, value: string, executor: Executor = db): Promise<void> {
  const timestamp = nowIso();
  await executor
    .insertInto("settings")
    .values({ key, value, created_at: timestamp, updated_at: timestamp })
    .onConflict((conflict) =>
      conflict
        .column("key")
        .doUpdateSet((eb) => ({ value: eb.ref("excluded.value"), updated_at: eb.ref("excluded.updated_at") })),
    )
    .execute();
}

/** The fee in cents; 19.99 when the row is missing or unreadable. */
export async function getInquiryFeeCents(executor: Executor = db): Promise<number> {
  const stored = await getSetting(FEE_KEY, executor);
  return (stored === null ? null : dollarsToCents(stored)) ?? DEFAULT_INQUIRY_FEE_CENTS;
}

let lastPublishedFeeCents: number | null = null;

/** The one way to change the fee: writes the setting and tells every open page. */
export async function setInquiryFee(cents: number): Promise<void> {
  if (!Number.isSafeInteger(cents) || cents < 0)
    throw new RangeError("The fee must be a whole number of cents, 0 or more");
  await setSetting(FEE_KEY, centsToDollarText(cents));
  announceFee(cents);
}

function announceFee(cents: number): void {
  if (cents === lastPublishedFeeCents) return;
  lastPublishedFeeCents = cents;
  publishFee({ cents });
}

/** Another process (the set-fee script, a second server) may write the fee: its pages follow too. */
let stopWatcher: (() => void) | undefined;
export async function watchForExternalFeeChanges(intervalMs = 100): Promise<void> {
  if (stopWatcher) return;
  // Called once, at start-up, before the server listens: no page is open to miss a change meanwhile.
  lastPublishedFeeCents = await getInquiryFeeCents();
  stopWatcher = watchDatabaseChanges(() => void refreshFee(), intervalMs);
}

// One read at a time, so an older answer never lands after a newer one; a change seen meanwhile reads again.
const feeReader = oneReadAtATime(
  async () => {
    if (isDatabaseOpen()) announceFee(await getInquiryFeeCents());
  },
  (error) => {
    if (isDatabaseOpen()) log.error({ error: (error as Error).message }, "fee not re-read");
  },
);
const refreshFee = feeReader.run;

export function stopWatchingFee(): void {
  stopWatcher?.();
  stopWatcher = undefined;
}
