import { sql, type Kysely } from "kysely";

// The count and value of live domains, kept by triggers, so the browse page and the admin's stat cards
// read one row instead of counting and summing every domain on each request (100,000 domains: tens of
// milliseconds per request, more under load).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE TABLE domain_totals (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    live_count INTEGER NOT NULL,
    live_value_cents INTEGER NOT NULL
  )`.execute(db);
  await sql`INSERT INTO domain_totals (id, live_count, live_value_cents)
    SELECT 1, count(*), coalesce(sum(asking_price_cents), 0) FROM domains WHERE deleted_at IS NULL`.execute(db);
  await sql`CREATE TRIGGER domain_totals_after_insert AFTER INSERT ON domains WHEN NEW.deleted_at IS NULL
    BEGIN
      UPDATE domain_totals SET live_count = live_count + 1, live_value_cents = live_value_cents + NEW.asking_price_cents WHERE id = 1;
    END`.execute(db);
  await sql`CREATE TRIGGER domain_totals_after_delete AFTER DELETE ON domains WHEN OLD.deleted_at IS NULL
    BEGIN
      UPDATE domain_totals SET live_count = live_count - 1, live_value_cents = live_value_cents - OLD.asking_price_cents WHERE id = 1;
    END`.execute(db);
  await sql`CREATE TRIGGER domain_totals_after_update AFTER UPDATE OF asking_price_cents, deleted_at ON domains
    BEGIN
      UPDATE domain_totals SET
        live_count = live_count - (OLD.deleted_at IS NULL) + (NEW.deleted_at IS NULL),
        live_value_cents = live_value_cents
          - (CASE WHEN OLD.deleted_at IS NULL THEN OLD.asking_price_cents ELSE 0 END)
          + (CASE WHEN NEW.deleted_at IS NULL THEN NEW.asking_price_cents ELSE 0 END)
      WHERE id = 1;
    END`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const trigger of ["domain_totals_after_insert", "domain_totals_after_delete", "domain_totals_after_update"]) {
    await sql.raw(`DROP TRIGGER IF EXISTS ${trigger}`).execute(db);
  }
  await db.schema.dropTable("domain_totals").execute();
}
