import { sql, type Kysely } from "kysely";

// The owner an inquiry was sent to (issue 34 finding 3): set when it becomes paid, from the domain's owner
// email then (trimmed, as typed). The owner's desk, its CSV and the replies' emails go by it, so changing a
// domain's owner gives the new owner none of the earlier buyers. Paid inquiries made before this migration
// take the owner their domain has now, the best known. NULL: not paid (yet).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE inquiries ADD COLUMN owner_email TEXT`.execute(db);
  await sql`UPDATE inquiries SET owner_email =
              (SELECT trim(domains.owner_email) FROM domains WHERE domains.id = inquiries.domain_id)
            WHERE paid_at IS NOT NULL`.execute(db);
  // An owner's inquiries, matched as domains_owner_email matches their domains (case and spaces ignored).
  await sql`CREATE INDEX inquiries_owner_email ON inquiries (lower(trim(owner_email)), paid_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS inquiries_owner_email`.execute(db);
  await sql`ALTER TABLE inquiries DROP COLUMN owner_email`.execute(db);
}
