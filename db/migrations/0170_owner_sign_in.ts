import type { Kysely } from "kysely";

// Owners sign in by an emailed code (app/server/owners/). remix-auth-totp keeps the code's secret in an
// encrypted cookie; these tables make a code usable once and valid in every process, and hold the
// owners' sessions (as `sessions` does the admin's: the cookie's token, stored as its SHA-256).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("owner_sign_in_codes")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("code_hash", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .addColumn("failed_attempts", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex("owner_sign_in_codes_expires").on("owner_sign_in_codes").column("expires_at").execute();
  await db.schema
    .createTable("owner_sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("owner_sessions_email").on("owner_sessions").column("email").execute();
  await db.schema
    .createTable("owner_sign_ins")
    .addColumn("email", "text", (c) => c.primaryKey())
    .addColumn("last_sign_in_at", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("owner_sign_ins").execute();
  await db.schema.dropTable("owner_sessions").execute();
  await db.schema.dropTable("owner_sign_in_codes").execute();
}
