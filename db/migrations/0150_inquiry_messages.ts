import { sql, type Kysely } from "kysely";
import { idColumn } from "./engine";

// The conversation of a paid inquiry (issue 23): the buyer's first message stays on the inquiry; every
// later message is a row here, oldest first by id.
//   author   'buyer' or 'owner'
//   via      'page' (written on the inquiry page) or 'site' (the admin wrote as the owner, from the inbox)
// An owner who answered by email ("I have replied by email") is recorded on the inquiry (answered_via).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("inquiry_messages")
    .$call(idColumn(db))
    .addColumn("inquiry_id", "integer", (c) => c.notNull().references("inquiries.id"))
    .addColumn("author", "text", (c) => c.notNull().check(sql`author IN ('buyer', 'owner')`))
    .addColumn("via", "text", (c) => c.notNull().check(sql`via IN ('page', 'site')`))
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await sql`CREATE INDEX inquiry_messages_inquiry ON inquiry_messages (inquiry_id, id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("inquiry_messages").execute();
}
