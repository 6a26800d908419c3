import { sql, type Kysely } from "kysely";
import { isPostgres } from "./engine";

// The home page filters live domains by extension, length, hyphens and digits and sorts them by length
// (issue 24). Each is a column computed from domain_name by the database itself (generated), so every
// way a name is written (the app, a CSV import, a script, a test's INSERT) fills them, and each filter is
// an index seek instead of a string function over 100,000 names:
//   tld          everything after the first dot ("com", "co.uk")
//   name_length  characters before the first dot (of the stored ASCII form: an IDN counts its xn-- form)
//   has_hyphen   1 when the name before the first dot holds a "-", else 0
//   has_digit    1 when it holds a digit, else 0
// SQLite computes them on read (VIRTUAL: ALTER TABLE can add no other kind) and keeps them in the
// indexes; PostgreSQL stores them. Both give integers for the flags, so queries read the same on both.
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    const label = "split_part(domain_name, '.', 1)";
    await sql
      .raw(
        `ALTER TABLE domains
        ADD COLUMN tld text GENERATED ALWAYS AS (substr(domain_name, strpos(domain_name, '.') + 1)) STORED,
        ADD COLUMN name_length integer GENERATED ALWAYS AS (strpos(domain_name, '.') - 1) STORED,
        ADD COLUMN has_hyphen integer GENERATED ALWAYS AS (CASE WHEN strpos(${label}, '-') > 0 THEN 1 ELSE 0 END) STORED,
        ADD COLUMN has_digit integer GENERATED ALWAYS AS (CASE WHEN ${label} ~ '[0-9]' THEN 1 ELSE 0 END) STORED`,
      )
      .execute(db);
  } else {
    const label = "substr(domain_name, 1, instr(domain_name, '.') - 1)";
    const columns = [
      "tld TEXT GENERATED ALWAYS AS (substr(domain_name, instr(domain_name, '.') + 1)) VIRTUAL",
      "name_length INTEGER GENERATED ALWAYS AS (instr(domain_name, '.') - 1) VIRTUAL",
      `has_hyphen INTEGER GENERATED ALWAYS AS (instr(${label}, '-') > 0) VIRTUAL`,
      `has_digit INTEGER GENERATED ALWAYS AS (${label} GLOB '*[0-9]*') VIRTUAL`,
    ];
    for (const column of columns) await sql.raw(`ALTER TABLE domains ADD COLUMN ${column}`).execute(db);
  }
  // Extension (with a price range, or sorted by price) and its counts; the two flags then the length, so
  // "No digits", "No hyphens" and "Max length" alone or together are counted from this index alone (a
  // flag has two values). SQLite's planner does not skip the leading flag when only the other is asked,
  // so "No hyphens" has an index led by it. "Shortest first" has its own.
  // The other sorts have their indexes already (0001: created_at, price, name).
  await sql`CREATE INDEX domains_live_tld_price ON domains (tld, asking_price_cents, id) WHERE deleted_at IS NULL`.execute(
    db,
  );
  await sql`CREATE INDEX domains_live_length ON domains (has_digit, has_hyphen, name_length, asking_price_cents, id)
    WHERE deleted_at IS NULL`.execute(db);
  await sql`CREATE INDEX domains_live_no_hyphen ON domains (has_hyphen, has_digit, name_length) WHERE deleted_at IS NULL`.execute(
    db,
  );
  await sql`CREATE INDEX domains_live_shortest ON domains (name_length, domain_name) WHERE deleted_at IS NULL`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of [
    "domains_live_tld_price",
    "domains_live_length",
    "domains_live_no_hyphen",
    "domains_live_shortest",
  ]) {
    await sql.raw(`DROP INDEX IF EXISTS ${index}`).execute(db);
  }
  for (const column of ["has_digit", "has_hyphen", "name_length", "tld"]) {
    await sql.raw(`ALTER TABLE domains DROP COLUMN ${column}`).execute(db);
  }
}
