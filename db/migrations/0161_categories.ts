import { sql, type Kysely } from "kysely";
import { idColumn, unwatchContentVersion, watchContentVersion } from "./engine";

// Categories (issue 24): the admin gives a domain any number of them; the home page filters by them and
// each has its own page, /category/{slug}. A category exists while a name uses it (it is made when first
// given, and a page or filter shows only those with live names). Public pages read both tables, so
// every write bumps the content version as 0030 does for domains.
const WATCHED_TABLES = ["categories", "domain_categories"] as const;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("categories")
    .$call(idColumn(db))
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("domain_categories")
    .addColumn("category_id", "integer", (c) => c.notNull().references("categories.id").onDelete("cascade"))
    .addColumn("domain_id", "integer", (c) => c.notNull().references("domains.id").onDelete("cascade"))
    .addPrimaryKeyConstraint("domain_categories_pk", ["category_id", "domain_id"])
    .execute();
  await sql`CREATE INDEX domain_categories_domain ON domain_categories (domain_id, category_id)`.execute(db);
  for (const table of WATCHED_TABLES) await watchContentVersion(db, table);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of WATCHED_TABLES) await unwatchContentVersion(db, table);
  await db.schema.dropTable("domain_categories").execute();
  await db.schema.dropTable("categories").execute();
}
