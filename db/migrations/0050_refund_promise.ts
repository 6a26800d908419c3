import { sql, type Kysely } from "kysely";

// The refund promise: each paid inquiry gets a reply deadline (set when it is paid, from the
// response_window_days setting). The owner confirms a reply before it, or the refund scheduler
// refunds the fee after it. The refund_* columns are the scheduler's state, kept here so that it
// survives restarts and two processes never refund the same inquiry twice:
//   refund_lease_until     a claim on an inquiry while its refund is in flight (expires if the process dies)
//   refund_attempts        how many refunds were tried
//   refund_next_attempt_at when a failed refund is retried (exponential backoff)
//   refund_last_error      the provider's last error, shown in the admin inbox
// Inquiries paid before this migration have no deadline and are never refunded automatically.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("inquiries").addColumn("reply_deadline_at", "text").execute();
  await db.schema.alterTable("inquiries").addColumn("answered_via", "text").execute();
  await db.schema
    .alterTable("inquiries")
    .addColumn("refund_attempts", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("inquiries").addColumn("refund_next_attempt_at", "text").execute();
  await db.schema.alterTable("inquiries").addColumn("refund_last_error", "text").execute();
  await db.schema.alterTable("inquiries").addColumn("refund_lease_until", "text").execute();
  // The scheduler's scan: paid, unanswered inquiries by deadline.
  await sql`CREATE INDEX inquiries_refund_due ON inquiries (reply_deadline_at)
            WHERE status = 'paid' AND answered_at IS NULL AND reply_deadline_at IS NOT NULL`.execute(db);
  // The trust signal: answered inquiries per domain.
  await sql`CREATE INDEX inquiries_answered ON inquiries (domain_id, answered_at) WHERE answered_at IS NOT NULL`.execute(
    db,
  );
  // The trust signal groups an owner's domains by normalised owner email (owner-reply-time.server.ts).
  await sql`CREATE INDEX domains_owner_email ON domains (lower(trim(owner_email)))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS domains_owner_email`.execute(db);
  await sql`DROP INDEX IF EXISTS inquiries_answered`.execute(db);
  await sql`DROP INDEX IF EXISTS inquiries_refund_due`.execute(db);
  for (const column of [
    "refund_lease_until",
    "refund_last_error",
    "refund_next_attempt_at",
    "refund_attempts",
    "answered_via",
    "reply_deadline_at",
  ]) {
    await db.schema.alterTable("inquiries").dropColumn(column).execute();
  }
}
