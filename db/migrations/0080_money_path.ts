import { sql, type Kysely } from "kysely";
import { bigInteger, isPostgres } from "./engine";

// The money path (issue 13): nothing a buyer paid is left without an outcome.
//   payment_refs     every payment intent and checkout session ever made for an inquiry: the
//                    reconciler asks the provider about each (with backoff, for up to a day), so a
//                    payment is recorded without a webhook and a replaced session is not forgotten.
//   stray_payments   a successful payment that cannot count (a second payment for one inquiry, one that
//                    does not match, one for an expired inquiry): refunded with retries until it is.
//   inquiries        refund_state: NULL (none), 'pending' (the provider has not finished), 'gave_up'
//                    (a refusal that will not change), 'settled' (the admin dealt with it);
//                    refund_id, refund_key_seq (one idempotency key per attempt after a definite
//                    failure), expired_at (a pending inquiry past 24 hours), declines (card
//                    declines counted against card testing).
//   outbox           dead_at: a message refused permanently (SMTP 5xx) is not retried any more.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("payment_refs")
    .addColumn("ref_id", "text", (c) => c.primaryKey())
    .addColumn("inquiry_id", "integer", (c) => c.notNull().references("inquiries.id"))
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind IN ('payment', 'checkout')`))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("checks", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_check_at", "text", (c) => c.notNull())
    .addColumn("done_at", "text")
    .execute();
  await sql`CREATE INDEX payment_refs_due ON payment_refs (next_check_at) WHERE done_at IS NULL`.execute(db);
  await sql`CREATE INDEX payment_refs_inquiry ON payment_refs (inquiry_id)`.execute(db);
  // The site-wide cap on payments created per hour counts these.
  await sql`CREATE INDEX payment_refs_created ON payment_refs (created_at)`.execute(db);
  // Payments already attached to pending inquiries are reconciled too.
  if (isPostgres(db)) {
    for (const [column, kind] of [
      ["payment_intent_id", "payment"],
      ["checkout_session_id", "checkout"],
    ] as const) {
      await sql`INSERT INTO payment_refs (ref_id, inquiry_id, kind, created_at, next_check_at)
                SELECT ${sql.ref(column)}, id, ${sql.lit(kind)}, created_at, created_at FROM inquiries
                WHERE status = 'pending' AND ${sql.ref(column)} IS NOT NULL
                ON CONFLICT DO NOTHING`.execute(db);
    }
  } else {
    await sql`INSERT OR IGNORE INTO payment_refs (ref_id, inquiry_id, kind, created_at, next_check_at)
              SELECT payment_intent_id, id, 'payment', created_at, created_at FROM inquiries
              WHERE status = 'pending' AND payment_intent_id IS NOT NULL`.execute(db);
    await sql`INSERT OR IGNORE INTO payment_refs (ref_id, inquiry_id, kind, created_at, next_check_at)
              SELECT checkout_session_id, id, 'checkout', created_at, created_at FROM inquiries
              WHERE status = 'pending' AND checkout_session_id IS NOT NULL`.execute(db);
  }

  await db.schema
    .createTable("stray_payments")
    .addColumn("payment_id", "text", (c) => c.primaryKey())
    .addColumn("inquiry_id", "integer", (c) => c.references("inquiries.id"))
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("amount_cents", bigInteger(db), (c) => c.notNull())
    .addColumn("state", "text", (c) => c.notNull().defaultTo("due"))
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("key_seq", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "text", (c) => c.notNull())
    .addColumn("lease_until", "text")
    .addColumn("refund_id", "text")
    .addColumn("last_error", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await sql`CREATE INDEX stray_payments_open ON stray_payments (next_attempt_at) WHERE state IN ('due', 'pending')`.execute(
    db,
  );

  await db.schema.alterTable("inquiries").addColumn("refund_state", "text").execute();
  await db.schema.alterTable("inquiries").addColumn("refund_id", "text").execute();
  await db.schema
    .alterTable("inquiries")
    .addColumn("refund_key_seq", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("inquiries").addColumn("expired_at", "text").execute();
  await db.schema
    .alterTable("inquiries")
    .addColumn("declines", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`CREATE INDEX inquiries_refund_state ON inquiries (refund_state) WHERE refund_state IS NOT NULL`.execute(db);
  await sql`CREATE INDEX inquiries_pending_created ON inquiries (created_at) WHERE status = 'pending'`.execute(db);
  await sql`CREATE INDEX inquiries_expired ON inquiries (expired_at) WHERE expired_at IS NOT NULL`.execute(db);

  await db.schema.alterTable("outbox").addColumn("dead_at", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE outbox DROP COLUMN dead_at`.execute(db);
  for (const index of ["inquiries_expired", "inquiries_pending_created", "inquiries_refund_state"]) {
    await sql`DROP INDEX IF EXISTS ${sql.raw(index)}`.execute(db);
  }
  for (const column of ["declines", "expired_at", "refund_key_seq", "refund_id", "refund_state"]) {
    await db.schema.alterTable("inquiries").dropColumn(column).execute();
  }
  await db.schema.dropTable("stray_payments").execute();
  await db.schema.dropTable("payment_refs").execute();
}
