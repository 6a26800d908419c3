import { sql, type Kysely } from "kysely";

// Two reads of the sale that grow with the sales (issue 37):
// - insights count sales and revenue by month from the deals paid since a month 12 months back: an index
//   on paid_at (paid deals only) reads those rows, not every deal the site ever made;
// - a /domain page or lander whose name is not listed asks whether it was sold: an index on the sold
//   names' domain_name finds it (or not) without reading every sold row.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX deals_paid ON deals (paid_at) WHERE paid_at IS NOT NULL`.execute(db);
  await sql`CREATE INDEX domains_sold_name ON domains (domain_name, sold_at) WHERE sold_at IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS domains_sold_name`.execute(db);
  await sql`DROP INDEX IF EXISTS deals_paid`.execute(db);
}
