import { sql, type Kysely } from "kysely";

// A pitch per name (issue 24): an optional short description, plain text up to 300 characters (the app
// checks the length), shown on the domain page and lander and used as its description. NULL: none.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE domains ADD COLUMN pitch text`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE domains DROP COLUMN pitch`.execute(db);
}
