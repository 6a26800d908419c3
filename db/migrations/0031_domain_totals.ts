import { sql, type Kysely } from "kysely";
import { bigIntegerSql, createPostgresTrigger, dropPostgresTrigger, isPostgres } from "./engine";

// The count and value of live domains, kept by triggers, so the browse page and the admin's stat cards
// read one row instead of counting and summing every domain on each request (100,000 domains: tens of
// milliseconds per request, more under load).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE TABLE domain_totals (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    live_count INTEGER NOT NULL,
    live_value_cents ${sql.raw(bigIntegerSql(db))} NOT NULL
  )`.execute(db);
  await sql`INSERT INTO domain_totals (id, live_count, live_value_cents)
    SELECT 1, count(*), coalesce(sum(asking_price_cents), 0) FROM domains WHERE deleted_at IS NULL`.execute(db);
  if (isPostgres(db)) return createPostgresTriggers(db);
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

// The same effects per statement: the changed rows' live count and value are added (insert), taken off
// (delete), or the old rows' taken off and the new rows' added (update), in one UPDATE of the totals row.
async function createPostgresTriggers(db: Kysely<any>): Promise<void> {
  const live = (rows: string) =>
    `(SELECT count(*) AS n, coalesce(sum(asking_price_cents), 0) AS cents FROM ${rows} WHERE deleted_at IS NULL)`;
  await createPostgresTrigger(db, {
    name: "domain_totals_after_insert",
    table: "domains",
    event: "INSERT",
    forEach: "STATEMENT",
    body: `UPDATE domain_totals SET live_count = live_count + added.n, live_value_cents = live_value_cents + added.cents
      FROM ${live("new_rows")} AS added WHERE id = 1 AND added.n > 0;`,
  });
  await createPostgresTrigger(db, {
    name: "domain_totals_after_delete",
    table: "domains",
    event: "DELETE",
    forEach: "STATEMENT",
    body: `UPDATE domain_totals SET live_count = live_count - removed.n, live_value_cents = live_value_cents - removed.cents
      FROM ${live("old_rows")} AS removed WHERE id = 1 AND removed.n > 0;`,
  });
  await createPostgresTrigger(db, {
    name: "domain_totals_after_update",
    table: "domains",
    event: "UPDATE",
    forEach: "STATEMENT",
    body: `UPDATE domain_totals SET
        live_count = live_count - old_live.n + new_live.n,
        live_value_cents = live_value_cents - old_live.cents + new_live.cents
      FROM ${live("old_rows")} AS old_live, ${live("new_rows")} AS new_live
      WHERE id = 1 AND (old_live.n <> new_live.n OR old_live.cents <> new_live.cents);`,
  });
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const trigger of ["domain_totals_after_insert", "domain_totals_after_delete", "domain_totals_after_update"]) {
    if (isPostgres(db)) await dropPostgresTrigger(db, trigger, "domains");
    else await sql.raw(`DROP TRIGGER IF EXISTS ${trigger}`).execute(db);
  }
  await db.schema.dropTable("domain_totals").execute();
}
