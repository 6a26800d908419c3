import { sql, type Kysely } from "kysely";
import { createPostgresTrigger, dropPostgresTrigger, isPostgres } from "./engine";

// A domain's inquiry_count is its paid inquiries ("N paid" in the admin, and the rule the load and
// fault tests check: inquiry_count equals the rows with status 'paid'). A refund takes an inquiry out
// of that set, so it takes it out of the count too, whichever process or code path refunds it (the
// inbox, the automatic refund, a script). Existing refunded rows are taken out once here.
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) return upPostgres(db);
  await sql`UPDATE domains SET inquiry_count = max(0, inquiry_count -
    (SELECT count(*) FROM inquiries WHERE inquiries.domain_id = domains.id AND inquiries.status = 'refunded' AND inquiries.paid_at IS NOT NULL))`.execute(
    db,
  );
  await sql`CREATE TRIGGER inquiries_refund_uncounts AFTER UPDATE OF status ON inquiries
    WHEN OLD.status <> 'refunded' AND NEW.status = 'refunded' AND NEW.paid_at IS NOT NULL
    BEGIN
      UPDATE domains SET inquiry_count = max(0, inquiry_count - 1) WHERE id = NEW.domain_id;
    END`.execute(db);
}

async function upPostgres(db: Kysely<any>): Promise<void> {
  await sql`UPDATE domains SET inquiry_count = greatest(0, inquiry_count -
    (SELECT count(*) FROM inquiries WHERE inquiries.domain_id = domains.id AND inquiries.status = 'refunded' AND inquiries.paid_at IS NOT NULL))`.execute(
    db,
  );
  await createPostgresTrigger(db, {
    name: "inquiries_refund_uncounts",
    table: "inquiries",
    event: "UPDATE OF status",
    forEach: "ROW",
    when: "OLD.status <> 'refunded' AND NEW.status = 'refunded' AND NEW.paid_at IS NOT NULL",
    body: "UPDATE domains SET inquiry_count = greatest(0, inquiry_count - 1) WHERE id = NEW.domain_id;",
  });
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) return dropPostgresTrigger(db, "inquiries_refund_uncounts", "inquiries");
  await sql`DROP TRIGGER IF EXISTS inquiries_refund_uncounts`.execute(db);
}
