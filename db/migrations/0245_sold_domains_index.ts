import { sql, type Kysely } from "kysely";

// The admin's domains table lists the live names and, marked "Sold", the sold ones (issue 37): a sold name
// has `deleted_at` set like a delisted one, so the live indexes leave it out. This index holds the sold
// names only (a few rows beside 100,000 live ones), so the table finds them, and counts them, without
// reading the whole table.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX domains_sold ON domains (sold_at) WHERE sold_at IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS domains_sold`.execute(db);
}
