import { sql, type Kysely } from "kysely";

// The domain page shows the owner's typical reply time (owner-reply-time.server.ts), read from
// inquiries. The page cache (migration 0030) serves a page only while content_version is unchanged,
// so a change to what that figure is computed from must bump it, from any process. Only answered
// inquiries count, so only these writes bump it: a new inquiry, a payment or a refund does not
// empty the cache.
export async function up(db: Kysely<any>): Promise<void> {
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

export async function down(db: Kysely<any>): Promise<void> {
  for (const event of ["insert", "update", "delete"]) {
    await sql.raw(`DROP TRIGGER IF EXISTS inquiries_${event}_bumps_content_version`).execute(db);
  }
}
