// Prints the query plans of the home page's filter combinations (bench/browse-rows.ts) on the database at
// DATABASE_URL, and whether each uses an index: `node --import=./scripts/ts-imports.mjs scripts/explain-browse.ts`. The bench runs it.
import { sql } from "kysely";
import { BROWSE_ROWS } from "../bench/browse-rows";
import { readBrowseQuery } from "../app/lib/browse";
import { closeDatabase, db, sqliteConnection } from "../app/server/db/database.server";
import { browseStatements } from "../app/server/catalog/browse.server";
import { findCategory } from "../app/server/catalog/categories.server";

const postgres = sqliteConnection === null;
const USES_INDEX = postgres
  ? /Index (Only )?Scan|Bitmap Index Scan/
  : /USING (COVERING )?INDEX|USING INTEGER PRIMARY KEY|PRIMARY KEY/;
let allIndexed = true;

/** The statement with its parameters written in (numbers and quoted strings): EXPLAIN takes no parameters on PostgreSQL. */
function inline(text: string, parameters: readonly unknown[]): string {
  const literal = (value: unknown) =>
    typeof value === "number" ? String(value) : `'${String(value).replace(/'/g, "''")}'`;
  if (postgres) return text.replace(/\$(\d+)/g, (_match, n: string) => literal(parameters[Number(n) - 1]));
  let at = 0;
  return text.replace(/\?/g, () => literal(parameters[at++]));
}
for (const [label, path] of BROWSE_ROWS) {
  const url = new URL(path, "http://bench");
  const slug = url.pathname.startsWith("/category/") ? url.pathname.slice("/category/".length) : null;
  const { filters } = readBrowseQuery(slug ? new URLSearchParams() : url.searchParams);
  const categorySlug = slug ?? filters.category;
  const categoryId = categorySlug ? ((await findCategory(categorySlug))?.id ?? null) : null;
  const statements = await browseStatements(filters, categoryId, 24);
  console.log(`-- ${label}`);
  for (const [part, compiled] of Object.entries(statements)) {
    const explain = postgres ? `EXPLAIN ${compiled.sql}` : `EXPLAIN QUERY PLAN ${compiled.sql}`;
    const { rows } = await sql.raw<Record<string, unknown>>(inline(explain, compiled.parameters)).execute(db);
    const plan = rows
      .map((row) => String(row["QUERY PLAN"] ?? row.detail ?? Object.values(row).at(-1)))
      .join("\n     ");
    const indexed = USES_INDEX.test(plan);
    allIndexed &&= indexed;
    console.log(`  ${part}: ${indexed ? "index" : "NO INDEX"}\n     ${plan}`);
  }
}
console.log(allIndexed ? "every statement uses an index" : "some statements use no index");
await closeDatabase();
