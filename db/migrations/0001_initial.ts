import { sql, type Kysely } from "kysely";
import { bigInteger, idColumn } from "./engine";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("domains")
    .$call(idColumn(db))
    .addColumn("domain_name", "text", (c) => c.notNull().check(sql`domain_name = lower(domain_name)`))
    .addColumn("asking_price_cents", bigInteger(db), (c) => c.notNull().check(sql`asking_price_cents >= 0`))
    .addColumn("tracking_id", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("owner_email", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("inquiry_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("deleted_at", "text")
    .execute();
  // Soft-deleted rows keep their name so paid inquiries keep their history; only live names are unique.
  await sql`CREATE UNIQUE INDEX domains_live_name ON domains (domain_name) WHERE deleted_at IS NULL`.execute(db);
  await sql`CREATE INDEX domains_live_created ON domains (created_at DESC, id DESC) WHERE deleted_at IS NULL`.execute(
    db,
  );
  await sql`CREATE INDEX domains_live_price ON domains (asking_price_cents, id) WHERE deleted_at IS NULL`.execute(db);

  await db.schema
    .createTable("settings")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("users")
    .$call(idColumn(db))
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("password_hash", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("sessions_user").on("sessions").column("user_id").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["sessions", "users", "settings", "domains"]) {
    await db.schema.dropTable(table).execute();
  }
}
