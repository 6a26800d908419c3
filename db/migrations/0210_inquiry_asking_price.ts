import { sql, type Kysely } from "kysely";
import { bigIntegerSql } from "./engine";

// The domain's asking price when the inquiry was made (issue 26 item 10): the inbox shows an offer
// against it ("$9,000 — 37% of the $24,500 asking price"), which a later price change must not alter.
// Inquiries made before this migration take the price their domain has now. NULL: not known.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE inquiries ADD COLUMN asking_price_cents ${sql.raw(bigIntegerSql(db))}`.execute(db);
  await sql`UPDATE inquiries SET asking_price_cents =
              (SELECT domains.asking_price_cents FROM domains WHERE domains.id = inquiries.domain_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE inquiries DROP COLUMN asking_price_cents`.execute(db);
}
