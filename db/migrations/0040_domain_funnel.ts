import { sql, type Kysely } from "kysely";
import { bigIntegerSql, isPostgres } from "./engine";

export async function up(db: Kysely<any>): Promise<void> {
  // One row per domain and UTC day: no cookies, no visitor data, only a count.
  await sql`CREATE TABLE domain_daily_views (
    domain_id INTEGER NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
    day TEXT NOT NULL,
    views INTEGER NOT NULL DEFAULT 0 CHECK (views >= 0),
    PRIMARY KEY (domain_id, day)
  )${sql.raw(isPostgres(db) ? "" : " WITHOUT ROWID")}`.execute(db);
  // Running totals in their own table, so sorting the admin table by views needs no aggregate and a
  // view never writes to the domains table (whose changes invalidate cached pages).
  await sql`CREATE TABLE domain_view_totals (
    domain_id INTEGER PRIMARY KEY REFERENCES domains (id) ON DELETE CASCADE,
    views ${sql.raw(bigIntegerSql(db))} NOT NULL DEFAULT 0 CHECK (views >= 0)
  )`.execute(db);
  await sql`CREATE INDEX domain_view_totals_views ON domain_view_totals (views, domain_id)`.execute(db);
  // The owner's private floor for offers; never sent to buyers.
  await sql`ALTER TABLE domains ADD COLUMN min_offer_cents ${sql.raw(bigIntegerSql(db))} CHECK (min_offer_cents IS NULL OR min_offer_cents >= 0)`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE domains DROP COLUMN min_offer_cents`.execute(db);
  await sql`DROP TABLE domain_view_totals`.execute(db);
  await sql`DROP TABLE domain_daily_views`.execute(db);
}
