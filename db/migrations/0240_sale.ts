import { sql, type Kysely } from "kysely";
import { bigIntegerSql, idColumn } from "./engine";
import { PUBLIC_DOMAIN_COLUMNS } from "./0190_public_content_version";
import { unwatchContentVersion, watchContentVersion } from "./engine";

// The sale (issue 37). A domain may have a buy now price; `sale_state` is what its public page shows of a
// sale ('under_offer' while a deal waits for payment, 'sold' once paid). A sold name is off sale as a
// delisted one is (`deleted_at`, so the catalog, counts, sitemap and totals drop it) and keeps `sold_at`.
// A deal is one agreed price for one name; the partial unique index lets a name have one live deal, so
// two accepts or a buy now racing an accepted offer give one deal in any number of processes.
export const SALE_DOMAIN_COLUMNS = [...PUBLIC_DOMAIN_COLUMNS, "buy_now_cents", "sale_state"] as const;

export async function up(db: Kysely<any>): Promise<void> {
  const money = bigIntegerSql(db);
  await sql`ALTER TABLE domains ADD COLUMN buy_now_cents ${sql.raw(money)}`.execute(db);
  await sql`ALTER TABLE domains ADD COLUMN sale_state TEXT`.execute(db);
  await sql`ALTER TABLE domains ADD COLUMN sold_at TEXT`.execute(db);
  // The owner's "Accept offers at or above": private, like min_offer_cents.
  await sql`ALTER TABLE domains ADD COLUMN auto_accept_cents ${sql.raw(money)}`.execute(db);
  await sql`ALTER TABLE test_payments ADD COLUMN purpose TEXT NOT NULL DEFAULT 'inquiry'`.execute(db);

  await db.schema
    .createTable("deals")
    .$call(idColumn(db))
    .addColumn("public_id", "text", (c) => c.notNull().unique())
    .addColumn("domain_id", "integer", (c) => c.notNull().references("domains.id"))
    .addColumn("domain_name", "text", (c) => c.notNull())
    .addColumn("inquiry_id", "integer", (c) => c.references("inquiries.id"))
    .addColumn("origin", "text", (c) => c.notNull())
    .addColumn("price_cents", sql.raw(money), (c) => c.notNull())
    .addColumn("fee_credited_cents", sql.raw(money), (c) => c.notNull().defaultTo(0))
    .addColumn("amount_due_cents", sql.raw(money), (c) => c.notNull())
    .addColumn("currency", "text", (c) => c.notNull().defaultTo("usd"))
    .addColumn("buyer_name", "text", (c) => c.notNull())
    .addColumn("buyer_email", "text", (c) => c.notNull())
    .addColumn("owner_email", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("checkout_id", "text", (c) => c.unique())
    .addColumn("payment_id", "text", (c) => c.unique())
    .addColumn("transfer_code", "text")
    .addColumn("transfer_note", "text")
    .addColumn("last_error", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("pay_by", "text")
    .addColumn("paid_at", "text")
    .addColumn("transfer_due_at", "text")
    .addColumn("transfer_sent_at", "text")
    .addColumn("completed_at", "text")
    .addColumn("closed_at", "text")
    .addColumn("paid_out_at", "text")
    .addColumn("overdue_notified_at", "text")
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  // Offers on an inquiry's conversation: each one is also a message (message_id), as is its answer.
  await db.schema
    .createTable("offers")
    .$call(idColumn(db))
    .addColumn("inquiry_id", "integer", (c) => c.notNull().references("inquiries.id"))
    .addColumn("side", "text", (c) => c.notNull())
    .addColumn("amount_cents", sql.raw(money), (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("message_id", "integer")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("answered_at", "text")
    .execute();
  await sql`CREATE INDEX offers_inquiry ON offers (inquiry_id, status)`.execute(db);
  await sql`CREATE UNIQUE INDEX deals_one_live_per_domain ON deals (domain_id)
            WHERE status IN ('agreed', 'paid', 'transferred', 'completed')`.execute(db);
  await sql`CREATE INDEX deals_created ON deals (created_at DESC, id DESC)`.execute(db);
  await sql`CREATE INDEX deals_owner ON deals (lower(owner_email), created_at)`.execute(db);

  await unwatchContentVersion(db, "domains");
  await watchContentVersion(db, "domains", { columns: SALE_DOMAIN_COLUMNS });
}

export async function down(db: Kysely<any>): Promise<void> {
  await unwatchContentVersion(db, "domains");
  await watchContentVersion(db, "domains", { columns: PUBLIC_DOMAIN_COLUMNS });
  await db.schema.dropTable("deals").execute();
  await db.schema.dropTable("offers").execute();
  await sql`ALTER TABLE test_payments DROP COLUMN purpose`.execute(db);
  for (const column of ["auto_accept_cents", "sold_at", "sale_state", "buy_now_cents"])
    await sql`ALTER TABLE domains DROP COLUMN ${sql.raw(column)}`.execute(db);
}
