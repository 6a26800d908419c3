import type { Kysely } from "kysely";
import { unwatchContentVersion, watchContentVersion } from "./engine";

// Only public changes empty the page cache (issue 27). Migration 0030 bumped the content version on every
// write to domains and settings, so each paid inquiry (domains.inquiry_count) emptied every process's
// cache and, on PostgreSQL, held the version row's lock until its payment committed. Now an UPDATE bumps
// it only when it changes a column a public page shows or chooses rows by; inserts and deletes still
// always do. A column added to domains later that a public page shows needs the list redone by a
// migration (tests/integration/content-version.test.ts fails until every column is sorted).
export const PUBLIC_DOMAIN_COLUMNS = [
  "domain_name",
  "asking_price_cents",
  // Listed or not.
  "deleted_at",
  // The browse page's "newest" order.
  "created_at",
  // The typical reply time and the similar names are the owner's.
  "owner_email",
  "pitch",
] as const;
// Every setting is public or may be (fee, contact address, legal pages, response window...); only a
// row's updated_at alone is not.
const PUBLIC_SETTINGS_COLUMNS = ["key", "value"] as const;

export async function up(db: Kysely<any>): Promise<void> {
  await unwatchContentVersion(db, "domains");
  await unwatchContentVersion(db, "settings");
  await watchContentVersion(db, "domains", { columns: PUBLIC_DOMAIN_COLUMNS });
  await watchContentVersion(db, "settings", { columns: PUBLIC_SETTINGS_COLUMNS, key: "key" });
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["domains", "settings"]) {
    await unwatchContentVersion(db, table);
    await watchContentVersion(db, table);
  }
}
