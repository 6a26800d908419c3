import { sql, type Kysely } from "kysely";

// The outbox can be drained by more than one process on the same database (two servers during a
// deploy, a script): a message is claimed with a lease (conditional UPDATE in mail.server.ts) before
// it is sent, so only one process sends it. An expired lease (a process died mid-send) frees it again.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("outbox").addColumn("lease_until", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE outbox DROP COLUMN lease_until`.execute(db);
}
