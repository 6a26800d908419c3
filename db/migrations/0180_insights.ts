import { sql, type Kysely } from "kysely";
import { bigIntegerSql, dropPostgresTrigger, isPostgres } from "./engine";

// Portfolio insights (issue 25 item 3; app/server/insights/portfolio-insights.server.ts):
//   portfolio_daily_views   the views of all names per UTC day, kept by triggers on domain_daily_views, so
//                           the whole portfolio's 90 days are 90 rows instead of every name's day rows
//                           (100,000 names: hundreds of thousands of rows, too slow for one page)
//   inquiries_paid          fees per month and paid inquiries per day, read by payment time
// On PostgreSQL the trigger is a deferred constraint trigger: it runs at commit, after the view flush
// (domain-views.server.ts) has locked its domain rows in order, so two processes flushing at once take the
// day row last and in turn instead of deadlocking on it between two domain rows.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE TABLE portfolio_daily_views (
    day TEXT PRIMARY KEY,
    views ${sql.raw(bigIntegerSql(db))} NOT NULL DEFAULT 0
  )`.execute(db);
  await fillPortfolioDailyViews(db);
  await createPortfolioDailyViewsTriggers(db);
  await sql`CREATE INDEX inquiries_paid ON inquiries (paid_at) WHERE paid_at IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX inquiries_paid`.execute(db);
  await dropPortfolioDailyViewsTriggers(db);
  await sql`DROP TABLE portfolio_daily_views`.execute(db);
}

/** Recomputes every day's total from domain_daily_views (the migration; bulk loads with the triggers off). */
export async function fillPortfolioDailyViews(db: Kysely<any>): Promise<void> {
  await sql`DELETE FROM portfolio_daily_views`.execute(db);
  await sql`INSERT INTO portfolio_daily_views (day, views)
    SELECT day, sum(views) FROM domain_daily_views GROUP BY day`.execute(db);
}

export async function createPortfolioDailyViewsTriggers(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    // The same three triggers as SQLite's (names and events), each with its function.
    const subtractOld = "UPDATE portfolio_daily_views SET views = views - OLD.views WHERE day = OLD.day;";
    const addNew = `INSERT INTO portfolio_daily_views (day, views) VALUES (NEW.day, NEW.views)
      ON CONFLICT (day) DO UPDATE SET views = portfolio_daily_views.views + excluded.views;`;
    const triggers: Array<[name: string, event: string, body: string]> = [
      ["portfolio_daily_views_insert", "INSERT", addNew],
      ["portfolio_daily_views_update", "UPDATE OF day, views", subtractOld + addNew],
      ["portfolio_daily_views_delete", "DELETE", subtractOld],
    ];
    for (const [name, event, body] of triggers) {
      await sql
        .raw(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $fn$ BEGIN ${body} RETURN NULL; END $fn$`)
        .execute(db);
      await sql
        .raw(
          `CREATE CONSTRAINT TRIGGER ${name} AFTER ${event} ON domain_daily_views
           DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ${name}()`,
        )
        .execute(db);
    }
    return;
  }
  await sql`CREATE TRIGGER portfolio_daily_views_insert AFTER INSERT ON domain_daily_views
    BEGIN
      INSERT INTO portfolio_daily_views (day, views) VALUES (NEW.day, NEW.views)
        ON CONFLICT (day) DO UPDATE SET views = views + excluded.views;
    END`.execute(db);
  await sql`CREATE TRIGGER portfolio_daily_views_update AFTER UPDATE OF day, views ON domain_daily_views
    BEGIN
      UPDATE portfolio_daily_views SET views = views - OLD.views WHERE day = OLD.day;
      INSERT INTO portfolio_daily_views (day, views) VALUES (NEW.day, NEW.views)
        ON CONFLICT (day) DO UPDATE SET views = views + excluded.views;
    END`.execute(db);
  await sql`CREATE TRIGGER portfolio_daily_views_delete AFTER DELETE ON domain_daily_views
    BEGIN
      UPDATE portfolio_daily_views SET views = views - OLD.views WHERE day = OLD.day;
    END`.execute(db);
}

export async function dropPortfolioDailyViewsTriggers(db: Kysely<any>): Promise<void> {
  for (const name of ["portfolio_daily_views_insert", "portfolio_daily_views_update", "portfolio_daily_views_delete"]) {
    if (isPostgres(db)) await dropPostgresTrigger(db, name, "domain_daily_views");
    else await sql.raw(`DROP TRIGGER IF EXISTS ${name}`).execute(db);
  }
}
