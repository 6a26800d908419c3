import { sql, type Kysely } from "kysely";
import { bigInteger, idColumn } from "./engine";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("inquiries")
    .$call(idColumn(db))
    .addColumn("public_id", "text", (c) => c.notNull().unique())
    .addColumn("domain_id", "integer", (c) => c.notNull().references("domains.id"))
    .addColumn("domain_name", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("phone", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("message", "text", (c) => c.notNull())
    .addColumn("offer", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("amount_cents", bigInteger(db), (c) => c.notNull().check(sql`amount_cents >= 0`))
    .addColumn("currency", "text", (c) => c.notNull().defaultTo("usd"))
    .addColumn("status", "text", (c) =>
      c
        .notNull()
        .defaultTo("pending")
        .check(sql`status IN ('pending', 'paid', 'failed', 'refunded')`),
    )
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("payment_intent_id", "text", (c) => c.unique())
    .addColumn("checkout_session_id", "text", (c) => c.unique())
    .addColumn("client_ip", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("paid_at", "text")
    .addColumn("owner_notified_at", "text")
    .addColumn("answered_at", "text")
    .addColumn("refunded_at", "text")
    .addColumn("last_error", "text")
    .execute();
  await sql`CREATE INDEX inquiries_domain ON inquiries (domain_id, created_at DESC)`.execute(db);
  await sql`CREATE INDEX inquiries_status_created ON inquiries (status, created_at DESC)`.execute(db);

  await db.schema
    .createTable("outbox")
    .$call(idColumn(db))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("to_address", "text", (c) => c.notNull())
    .addColumn("reply_to", "text")
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("text_body", "text", (c) => c.notNull())
    .addColumn("inquiry_id", "integer", (c) => c.references("inquiries.id"))
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "text", (c) => c.notNull())
    .addColumn("sent_at", "text")
    .addColumn("last_error", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await sql`CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE sent_at IS NULL`.execute(db);
  // One owner email per inquiry, however many times fulfilment runs.
  await sql`CREATE UNIQUE INDEX outbox_once ON outbox (kind, inquiry_id) WHERE inquiry_id IS NOT NULL`.execute(db);

  await db.schema
    .createTable("processed_events")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("processed_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("test_payments")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("client_secret", "text", (c) => c.notNull())
    .addColumn("amount_cents", bigInteger(db), (c) => c.notNull())
    .addColumn("currency", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("inquiry_public_id", "text", (c) => c.notNull())
    .addColumn("domain_name", "text", (c) => c.notNull())
    .addColumn("last_error", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["test_payments", "processed_events", "outbox", "inquiries"]) {
    await db.schema.dropTable(table).execute();
  }
}
