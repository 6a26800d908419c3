import { sql, type Kysely } from "kysely";
import { BUMP_CONTENT_VERSION_PLPGSQL, createPostgresTrigger, dropPostgresTrigger, isPostgres } from "./engine";

// The domain page shows the owner's typical reply time (owner-reply-time.server.ts), read from
// inquiries. The page cache (migration 0030) serves a page only while content_version is unchanged,
// so a change to what that figure is computed from must bump it, from any process. Only answered
// inquiries count, so only these writes bump it: a new inquiry, a payment or a refund does not
// empty the cache.
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) return createPostgresTriggers(db);
  const bump = "BEGIN UPDATE content_version SET version = version + 1 WHERE id = 1; END";
  await sql
    .raw(
      `CREATE TRIGGER inquiries_insert_bumps_content_version AFTER INSERT ON inquiries
       WHEN NEW.answered_at IS NOT NULL ${bump}`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER inquiries_update_bumps_content_version AFTER UPDATE OF answered_at, paid_at, domain_id ON inquiries
       WHEN NEW.answered_at IS NOT OLD.answered_at OR (NEW.answered_at IS NOT NULL
         AND (NEW.paid_at IS NOT OLD.paid_at OR NEW.domain_id IS NOT OLD.domain_id)) ${bump}`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER inquiries_delete_bumps_content_version AFTER DELETE ON inquiries
       WHEN OLD.answered_at IS NOT NULL ${bump}`,
    )
    .execute(db);
}

// The same conditions per row as SQLite's WHEN clauses (IS DISTINCT FROM is SQLite's IS NOT on values).
async function createPostgresTriggers(db: Kysely<any>): Promise<void> {
  const body = BUMP_CONTENT_VERSION_PLPGSQL;
  await createPostgresTrigger(db, {
    name: "inquiries_insert_bumps_content_version",
    table: "inquiries",
    event: "INSERT",
    forEach: "ROW",
    when: "NEW.answered_at IS NOT NULL",
    body,
  });
  await createPostgresTrigger(db, {
    name: "inquiries_update_bumps_content_version",
    table: "inquiries",
    event: "UPDATE OF answered_at, paid_at, domain_id",
    forEach: "ROW",
    when: `NEW.answered_at IS DISTINCT FROM OLD.answered_at OR (NEW.answered_at IS NOT NULL
      AND (NEW.paid_at IS DISTINCT FROM OLD.paid_at OR NEW.domain_id IS DISTINCT FROM OLD.domain_id))`,
    body,
  });
  await createPostgresTrigger(db, {
    name: "inquiries_delete_bumps_content_version",
    table: "inquiries",
    event: "DELETE",
    forEach: "ROW",
    when: "OLD.answered_at IS NOT NULL",
    body,
  });
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const event of ["insert", "update", "delete"]) {
    const name = `inquiries_${event}_bumps_content_version`;
    if (isPostgres(db)) await dropPostgresTrigger(db, name, "inquiries");
    else await sql.raw(`DROP TRIGGER IF EXISTS ${name}`).execute(db);
  }
}
