import { sql, type Kysely } from "kysely";

// Two reads of the deals table that grew with it (measured on SQLite with 100,010 deals):
// - every inquiry page (the buyer's, the owner's, the owner's desk and the admin's inbox cards) reads the
//   deal of its inquiries, and a refund checks that no live deal took the fee as credit: a scan of the
//   table each time (23-33 ms) without an index on inquiry_id;
// - the reconciler's deal passes (unpaid deals past their pay-by date, late transfers, refunds left
//   under way, stale buy now checkouts) read deals in one status each: four scans of about 9.5 ms every
//   pass; by (status, id) each reads its few rows in id order (0.02 ms).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX deals_inquiry ON deals (inquiry_id)`.execute(db);
  await sql`CREATE INDEX deals_status ON deals (status, id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS deals_status`.execute(db);
  await sql`DROP INDEX IF EXISTS deals_inquiry`.execute(db);
}
