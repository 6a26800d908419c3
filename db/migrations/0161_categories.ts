import { sql, type Kysely } from "kysely";
import {
  BUMP_CONTENT_VERSION_PLPGSQL,
  createPostgresTrigger,
  dropPostgresTrigger,
  idColumn,
  isPostgres,
} from "./engine";

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
  for (const table of WATCHED_TABLES) {
    if (isPostgres(db)) {
      await createPostgresTrigger(db, {
        name: `${table}_locks_content_version`,
        table,
        timing: "BEFORE",
        event: "INSERT OR UPDATE OR DELETE",
        forEach: "STATEMENT",
        body: "PERFORM 1 FROM content_version WHERE id = 1 FOR UPDATE;",
      });
    }
    for (const event of ["INSERT", "UPDATE", "DELETE"] as const) {
      const name = `${table}_${event.toLowerCase()}_bumps_content_version`;
      if (isPostgres(db)) {
        const changed = event === "DELETE" ? "old_rows" : "new_rows";
        await createPostgresTrigger(db, {
          name,
          table,
          event,
          forEach: "STATEMENT",
          body: `IF EXISTS (SELECT 1 FROM ${changed}) THEN ${BUMP_CONTENT_VERSION_PLPGSQL} END IF;`,
        });
        continue;
      }
      await sql
        .raw(
          `CREATE TRIGGER ${name} AFTER ${event} ON ${table} BEGIN UPDATE content_version SET version = version + 1 WHERE id = 1; END`,
        )
        .execute(db);
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of WATCHED_TABLES) {
    if (isPostgres(db)) await dropPostgresTrigger(db, `${table}_locks_content_version`, table);
    for (const event of ["insert", "update", "delete"]) {
      const name = `${table}_${event}_bumps_content_version`;
      if (isPostgres(db)) await dropPostgresTrigger(db, name, table);
      else await sql.raw(`DROP TRIGGER IF EXISTS ${name}`).execute(db);
    }
  }
  await db.schema.dropTable("domain_categories").execute();
  await db.schema.dropTable("categories").execute();
}
