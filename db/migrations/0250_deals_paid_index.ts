import { sql, type Kysely } from "kysely";

// Insights count sales and revenue by month from the deals paid since a month 12 months back (issue 37):
// an index on paid_at (paid deals only) reads those rows, not every deal the site ever made.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX deals_paid ON deals (paid_at) WHERE paid_at IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS deals_paid`.execute(db);
}
