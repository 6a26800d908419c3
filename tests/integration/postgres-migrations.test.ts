// The app's migrations on a real PostgreSQL (issue 15): run from two processes at once they each apply
// once; they build the tables, columns, indexes and triggers SQLite gets; and the triggers do what
// SQLite's do (domain totals, content version, refunds uncounting inquiries), PostgreSQL's also NOTIFYing.
import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrationNames } from "../../app/server/db/migrator.server";
import { runScript } from "../support/app-server";
import { createTestDatabase } from "../support/postgres";
import { waitFor } from "../support/wait";

const SESSION_SECRET = "migration-test-secret-0123456789";
let postgresUrl: string;
let client: pg.Client;
let folder: string;
let sqlite: Database.Database;
let results: Record<"first" | "second" | "onSqlite", { code: number | null; output: string }>;

function migrate(databaseUrl: string) {
  return runScript({ env: { DATABASE_URL: databaseUrl, SESSION_SECRET, ENV_FILE: "/dev/null" } }, "migrate.ts");
}

/** The migrations a `npm run migrate` run says it applied. */
function appliedBy(output: string): string[] {
  if (/is up to date/.test(output)) return [];
  const match = /Applied \d+ migrations to [^:]+: (.+)/.exec(output);
  if (!match) throw new Error(`unexpected migrate output:\n${output}`);
  return match[1]!.trim().split(", ");
}

beforeAll(async () => {
  postgresUrl = await createTestDatabase();
  folder = mkdtempSync(path.join(tmpdir(), "domains-migrations-"));
  const [first, second, onSqlite] = await Promise.all([
    migrate(postgresUrl),
    migrate(postgresUrl),
    migrate(`file:${path.join(folder, "app.db")}`),
  ]);
  results = { first, second, onSqlite };
  client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  sqlite = new Database(path.join(folder, "app.db"));
}, 120_000);

afterAll(async () => {
  await client?.end();
  sqlite?.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

describe("migrations on PostgreSQL", () => {
  it("run from two processes at once: both succeed and every migration is applied exactly once", async () => {
    expect(results.first.code, results.first.output).toBe(0);
    expect(results.second.code, results.second.output).toBe(0);
    expect(results.onSqlite.code, results.onSqlite.output).toBe(0);
    const applied = [...appliedBy(results.first.output), ...appliedBy(results.second.output)].sort();
    expect(applied).toEqual(migrationNames);
    const recorded = await client.query("SELECT name FROM kysely_migration ORDER BY name");
    expect(recorded.rows.map((row) => row.name)).toEqual(migrationNames);
    expect(appliedBy(results.onSqlite.output)).toEqual(migrationNames);

    const again = await migrate(postgresUrl);
    expect(again.code, again.output).toBe(0);
    expect(appliedBy(again.output)).toEqual([]);
  });

  it("a role that may not install extensions still migrates: the admin search goes without its trigram index", async () => {
    const limitedUrl = await createTestDatabase();
    const database = new URL(limitedUrl).pathname.slice(1);
    const role = `limited_${database}`;
    await client.query(`CREATE ROLE ${role} LOGIN PASSWORD 'limited-password'`);
    // The tables go in schema public, but the role has no CREATE on the database (needed for pg_trgm).
    const owner = new pg.Client({ connectionString: limitedUrl });
    await owner.connect();
    try {
      await owner.query(`GRANT ALL ON SCHEMA public TO ${role}`);
    } finally {
      await owner.end();
    }
    const url = new URL(limitedUrl);
    url.username = role;
    url.password = "limited-password";
    const run = await migrate(url.toString());
    expect(run.code, run.output).toBe(0);
    expect(appliedBy(run.output)).toEqual(migrationNames);
    const limited = new pg.Client({ connectionString: url.toString() });
    await limited.connect();
    try {
      const { rows } = await limited.query(
        "SELECT indexname FROM pg_indexes WHERE tablename = 'domains' AND indexname LIKE 'domains_live_search%' ORDER BY 1",
      );
      expect(rows.map((row) => row.indexname)).toEqual(["domains_live_search"]);
      const extension = await limited.query("SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'");
      expect(extension.rowCount).toBe(0);
    } finally {
      await limited.end();
    }
  });

  it("builds the tables, columns, indexes and triggers SQLite has", async () => {
    expect(await postgresSchema()).toEqual(sqliteSchema());
    // PostgreSQL has one more index: the admin search's trigrams (migration 0130; pg_trgm ships with it).
    expect(await postgresIndexes()).toEqual([...sqliteNames("index"), "domains_live_search_trigrams"].sort());
    // PostgreSQL has one more trigger per watched table: it takes the version row's lock first.
    const locks = ["domains", "settings", "categories", "domain_categories"].map(
      (table) => `${table}_locks_content_version`,
    );
    expect(await postgresTriggers()).toEqual([...sqliteNames("trigger"), ...locks].sort());
  });

  it("keeps money and counters that may pass 2^31 in 64-bit columns", async () => {
    const { rows } = await client.query<{ column: string; type: string }>(
      `SELECT table_name || '.' || column_name AS column, data_type AS type FROM information_schema.columns
       WHERE table_schema = 'public' AND (column_name LIKE '%\\_cents' OR column_name IN ('version', 'views'))
       ORDER BY 1`,
    );
    expect(rows.map((row) => row.column)).toEqual([
      "content_version.version",
      "deals.amount_due_cents",
      "deals.fee_credited_cents",
      "deals.price_cents",
      "domain_daily_views.views",
      "domain_totals.live_value_cents",
      "domain_view_totals.views",
      "domains.asking_price_cents",
      "domains.auto_accept_cents",
      "domains.buy_now_cents",
      "domains.min_offer_cents",
      "inquiries.amount_cents",
      "inquiries.asking_price_cents",
      "offers.amount_cents",
      "portfolio_daily_views.views",
      "stray_payments.amount_cents",
      "test_payments.amount_cents",
    ]);
    for (const row of rows)
      expect([row.column, row.type]).toEqual([
        row.column,
        row.column === "domain_daily_views.views" ? "integer" : "bigint",
      ]);
    // A $1bn asking price (the admin form's maximum) fits.
    await client.query(
      `INSERT INTO domains (domain_name, asking_price_cents, created_at, updated_at) VALUES ('billion.com', 100000000000, '2026-01-01', '2026-01-01')`,
    );
    const totals = await client.query("SELECT live_value_cents::text AS cents FROM domain_totals");
    expect(totals.rows[0].cents).toBe("100000000000");
    await client.query("DELETE FROM domains WHERE domain_name = 'billion.com'");
  });

  it("keeps domain totals and the content version as SQLite's triggers do, for every kind of write", async () => {
    const engines = { postgres: postgresRunner(), sqlite: sqliteRunner() };
    const steps: string[] = [
      `INSERT INTO domains (domain_name, asking_price_cents, created_at, updated_at) VALUES ('a.com', 1000, 't', 't')`,
      `INSERT INTO domains (domain_name, asking_price_cents, created_at, updated_at, deleted_at) VALUES ('gone.com', 700, 't', 't', 't')`,
      `INSERT INTO domains (domain_name, asking_price_cents, created_at, updated_at) VALUES ('b.com', 2000, 't', 't'), ('c.com', 3000, 't', 't'), ('d.com', 4000, 't', 't')`,
      `UPDATE domains SET asking_price_cents = 1500 WHERE domain_name = 'a.com'`,
      `UPDATE domains SET asking_price_cents = asking_price_cents + 1`,
      `UPDATE domains SET deleted_at = 't' WHERE domain_name = 'b.com'`,
      `UPDATE domains SET asking_price_cents = 9 WHERE domain_name = 'b.com'`,
      `UPDATE domains SET deleted_at = NULL WHERE domain_name IN ('b.com', 'gone.com')`,
      `UPDATE domains SET inquiry_count = 3 WHERE domain_name = 'c.com'`,
      `UPDATE domains SET inquiry_count = inquiry_count + 1, updated_at = 'u', min_offer_cents = 50`,
      `UPDATE domains SET asking_price_cents = asking_price_cents WHERE domain_name = 'c.com'`,
      `UPDATE domains SET pitch = 'Short and sweet', updated_at = 'v' WHERE domain_name = 'c.com'`,
      `UPDATE domains SET owner_email = 'o@x.test' WHERE domain_name = 'c.com'`,
      `UPDATE domains SET domain_name = 'cc.com' WHERE domain_name = 'c.com'`,
      `UPDATE domains SET domain_name = 'c.com' WHERE domain_name = 'cc.com'`,
      `UPDATE domains SET asking_price_cents = 5 WHERE domain_name = 'nothing.com'`,
      `DELETE FROM domains WHERE domain_name = 'c.com'`,
      `UPDATE domains SET deleted_at = 't' WHERE domain_name = 'd.com'`,
      `DELETE FROM domains WHERE domain_name = 'd.com'`,
      `DELETE FROM domains WHERE domain_name = 'nothing.com'`,
      `INSERT INTO settings (key, value, created_at, updated_at) VALUES ('inquiry_fee_cents', '999', 't', 't')
         ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      `INSERT INTO settings (key, value, created_at, updated_at) VALUES ('inquiry_fee_cents', '1999', 't', 't')
         ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      `INSERT INTO settings (key, value, created_at, updated_at) VALUES ('inquiry_fee_cents', '1999', 'u', 'u')
         ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
      `DELETE FROM settings WHERE key = 'inquiry_fee_cents'`,
      `DELETE FROM domains`,
    ];
    // Only what a public page shows moves the version (migration 0190): not a paid inquiry's count, the
    // updated_at or the owner's minimum offer, nor a write that leaves every public column as it was.
    const private_ = new Set([
      `UPDATE domains SET inquiry_count = 3 WHERE domain_name = 'c.com'`,
      `UPDATE domains SET inquiry_count = inquiry_count + 1, updated_at = 'u', min_offer_cents = 50`,
      `UPDATE domains SET asking_price_cents = asking_price_cents WHERE domain_name = 'c.com'`,
      `UPDATE domains SET asking_price_cents = 5 WHERE domain_name = 'nothing.com'`,
      `DELETE FROM domains WHERE domain_name = 'nothing.com'`,
      steps[steps.indexOf(`DELETE FROM settings WHERE key = 'inquiry_fee_cents'`) - 1],
    ]);
    for (const step of steps) {
      const seen: Record<string, { totals: unknown; versionChanged: boolean }> = {};
      for (const [name, run] of Object.entries(engines)) {
        const before = await run.version();
        await run.exec(step);
        seen[name] = { totals: await run.totals(), versionChanged: (await run.version()) !== before };
      }
      expect(seen.postgres, step).toEqual(seen.sqlite);
      expect(seen.sqlite!.versionChanged, step).toBe(!private_.has(step));
      const counted = await engines.postgres.query(
        "SELECT count(*)::int AS live_count, coalesce(sum(asking_price_cents), 0)::bigint AS live_value_cents FROM domains WHERE deleted_at IS NULL",
      );
      expect(await engines.postgres.totals(), step).toEqual(counted[0]);
    }
  });

  it("sorts every column of domains and settings: public ones bump the content version, the others are named private", () => {
    // A column added later is either shown by a public page (then a migration adds it to the trigger's
    // UPDATE OF list, as 0190 does) or added here.
    const privateColumns: Record<string, string[]> = {
      domains: [
        // The owner's private "Accept offers at or above" (0240); sold_at moves with sale_state and deleted_at.
        "auto_accept_cents",
        "sold_at",
        "has_digit",
        "has_hyphen",
        "id",
        "inquiry_count",
        "min_offer_cents",
        "name_length",
        "tld",
        "tracking_id",
        "updated_at",
      ],
      settings: ["created_at", "updated_at"],
    };
    for (const [table, known] of Object.entries(privateColumns)) {
      const trigger = sqlite
        .prepare("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?")
        .get(`${table}_update_bumps_content_version`) as { sql: string };
      const watched = /UPDATE OF ([\w, ]+) ON/.exec(trigger.sql)![1]!.split(", ");
      const columns = (sqlite.prepare(`PRAGMA table_xinfo(${table})`).all() as { name: string }[]).map(
        (column) => column.name,
      );
      expect([...watched, ...known].sort(), table).toEqual([...columns].sort());
    }
  });

  it("takes a refunded paid inquiry out of its domain's count, and bumps the version for answered inquiries only", async () => {
    const engines = { postgres: postgresRunner(), sqlite: sqliteRunner() };
    const inquiry = (id: number, status: string, paid: string, answered: string) =>
      `INSERT INTO inquiries (id, public_id, domain_id, domain_name, name, email, message, amount_cents, status, provider, created_at, paid_at, answered_at)
       VALUES (${id}, 'p${id}', 50, 'r.com', 'n', 'e@x.test', 'm', 1999, '${status}', 'test', 't', ${paid}, ${answered})`;
    const steps: string[] = [
      `INSERT INTO domains (id, domain_name, asking_price_cents, inquiry_count, created_at, updated_at) VALUES (50, 'r.com', 100, 3, 't', 't')`,
      inquiry(1, "paid", "'t'", "NULL"),
      inquiry(2, "paid", "'t'", "NULL"),
      inquiry(3, "pending", "NULL", "NULL"),
      inquiry(4, "paid", "'t'", "'t'"),
      `UPDATE inquiries SET status = 'refunded', refunded_at = 't' WHERE id = 1`,
      `UPDATE inquiries SET status = 'refunded' WHERE id = 1`,
      `UPDATE inquiries SET status = 'refunded' WHERE id = 3`,
      `UPDATE inquiries SET answered_at = 'u' WHERE id = 2`,
      `UPDATE inquiries SET answered_at = 'u' WHERE id = 2`,
      `UPDATE inquiries SET paid_at = 'v' WHERE id = 3`,
      `UPDATE inquiries SET paid_at = 'v' WHERE id = 2`,
      `UPDATE inquiries SET status = 'refunded', answered_at = 'w' WHERE id = 2`,
      `UPDATE inquiries SET last_error = 'x' WHERE id = 4`,
      `DELETE FROM inquiries WHERE id = 3`,
      `DELETE FROM inquiries WHERE id = 4`,
      `UPDATE domains SET inquiry_count = 0 WHERE id = 50`,
      inquiry(5, "paid", "'t'", "NULL"),
      `UPDATE inquiries SET status = 'refunded' WHERE id = 5`,
    ];
    for (const step of steps) {
      const seen: Record<string, { count: unknown; versionChanged: boolean }> = {};
      for (const [name, run] of Object.entries(engines)) {
        const before = await run.version();
        await run.exec(step);
        const [row] = await run.query("SELECT inquiry_count FROM domains WHERE id = 50");
        seen[name] = { count: row?.inquiry_count, versionChanged: (await run.version()) !== before };
      }
      expect(seen.postgres, step).toEqual(seen.sqlite);
    }
    expect(await engines.postgres.query("SELECT inquiry_count FROM domains WHERE id = 50")).toEqual([
      { inquiry_count: 0 },
    ]);
  });

  it("lets two transactions that each change two domains take turns instead of deadlocking on the version row", async () => {
    const other = new pg.Client({ connectionString: postgresUrl });
    await other.connect();
    const otherPid = (await other.query("SELECT pg_backend_pid() AS pid")).rows[0].pid as number;
    try {
      await client.query(
        `INSERT INTO domains (domain_name, asking_price_cents, created_at, updated_at) VALUES ('x.com', 1, 't', 't'), ('y.com', 1, 't', 't')`,
      );
      await client.query("BEGIN");
      await other.query("BEGIN");
      await client.query("UPDATE domains SET asking_price_cents = 2 WHERE domain_name = 'x.com'");
      // Waits for the first transaction's version lock before it locks y.com...
      const second = other
        .query("UPDATE domains SET asking_price_cents = 3 WHERE domain_name = 'y.com'")
        .then(() => other.query("COMMIT"));
      await waitFor(
        async () =>
          (await client.query("SELECT wait_event_type FROM pg_stat_activity WHERE pid = $1", [otherPid])).rows[0]
            ?.wait_event_type === "Lock",
        10_000,
        "the second transaction to wait for a lock",
      );
      // ...so the first can still change y.com (with the lock taken after the row, this was a deadlock).
      await client.query("UPDATE domains SET asking_price_cents = 4 WHERE domain_name = 'y.com'");
      await client.query("COMMIT");
      await second;
      const { rows } = await client.query(
        "SELECT domain_name, asking_price_cents::int AS cents FROM domains WHERE domain_name IN ('x.com', 'y.com') ORDER BY 1",
      );
      expect(rows).toEqual([
        { domain_name: "x.com", cents: 2 },
        { domain_name: "y.com", cents: 3 },
      ]);
      await client.query("DELETE FROM domains WHERE domain_name IN ('x.com', 'y.com')");
    } finally {
      await other.end();
    }
  });

  it("NOTIFYs content_changed when a write a public page shows commits", async () => {
    const listener = new pg.Client({ connectionString: postgresUrl });
    await listener.connect();
    try {
      const received: string[] = [];
      let probes = 0;
      listener.on("notification", (message) =>
        message.channel === "probe" ? (probes += 1) : received.push(`${message.channel}:${message.payload}`),
      );
      await listener.query("LISTEN content_changed");
      await listener.query("LISTEN probe");
      // A notification sent after the statements so far committed: PostgreSQL delivers notifications in
      // commit order, so once it has arrived, any notification those statements made has too.
      const probed = async () => {
        const before = probes;
        await listener.query("NOTIFY probe");
        await waitFor(() => probes > before, 5_000, "the probe notification");
      };
      await client.query(
        `INSERT INTO settings (key, value, created_at, updated_at) VALUES ('notify_test', '1', 't', 't')`,
      );
      await expect.poll(() => received, { timeout: 5_000 }).toEqual(["content_changed:settings"]);
      await client.query("BEGIN");
      await client.query(
        `INSERT INTO domains (domain_name, asking_price_cents, created_at, updated_at) VALUES ('n1.com', 1, 't', 't')`,
      );
      await client.query(`UPDATE domains SET asking_price_cents = 2 WHERE domain_name = 'n1.com'`);
      await probed();
      expect(received).toHaveLength(1); // nothing before the commit
      await client.query("COMMIT");
      await expect
        .poll(() => received, { timeout: 5_000 })
        .toEqual(["content_changed:settings", "content_changed:domains"]);
      await client.query(`UPDATE domains SET asking_price_cents = 3 WHERE domain_name = 'nobody.com'`);
      await client.query(
        `INSERT INTO domain_daily_views (domain_id, day, views) SELECT id, '2026-01-01', 1 FROM domains WHERE domain_name = 'n1.com'`,
      );
      await probed();
      expect(received).toHaveLength(2);
    } finally {
      await listener.end();
    }
  });
});

interface Runner {
  exec: (statement: string) => Promise<void>;
  query: (statement: string) => Promise<Record<string, unknown>[]>;
  totals: () => Promise<unknown>;
  version: () => Promise<number>;
}

function postgresRunner(): Runner {
  const query = async (statement: string) =>
    (await client.query(statement)).rows.map((row) =>
      Object.fromEntries(
        Object.entries(row).map(([key, value]) => [
          key,
          typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value,
        ]),
      ),
    );
  return {
    exec: async (statement) => void (await client.query(statement)),
    query,
    totals: async () => (await query("SELECT live_count, live_value_cents FROM domain_totals"))[0],
    version: async () => Number((await query("SELECT version FROM content_version"))[0]!.version),
  };
}

function sqliteRunner(): Runner {
  const query = async (statement: string) => sqlite.prepare(statement).all() as Record<string, unknown>[];
  return {
    exec: async (statement) => void sqlite.prepare(statement).run(),
    query,
    totals: async () => (await query("SELECT live_count, live_value_cents FROM domain_totals"))[0],
    version: async () => Number((await query("SELECT version FROM content_version"))[0]!.version),
  };
}

type Columns = Record<string, string[]>;

/** Table -> "column type null/not null" for every table the app's migrations made (not Kysely's own). */
function sqliteSchema(): Columns {
  const tables = sqlite
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'kysely_%' ORDER BY name",
    )
    .all() as { name: string }[];
  const schema: Columns = {};
  for (const { name } of tables) {
    // table_xinfo lists generated columns too (hidden 2 or 3; 1 is a virtual table's hidden column).
    const columns = sqlite.prepare(`PRAGMA table_xinfo(${name})`).all() as {
      name: string;
      type: string;
      notnull: number;
      pk: number;
      hidden: number;
    }[];
    schema[name] = columns
      .filter((column) => column.hidden !== 1)
      .map(
        (column) => `${column.name} ${column.type.toLowerCase()} ${column.notnull || column.pk ? "not null" : "null"}`,
      )
      .sort();
  }
  return schema;
}

async function postgresSchema(): Promise<Columns> {
  const { rows } = await client.query<{
    table_name: string;
    column_name: string;
    data_type: string;
    is_nullable: string;
  }>(
    `SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns
     WHERE table_schema = 'public' AND table_name NOT LIKE 'kysely\\_%' ORDER BY table_name`,
  );
  const schema: Columns = {};
  for (const row of rows) {
    // SQLite's INTEGER is 64-bit: PostgreSQL's integer and bigint are both its integers.
    const type = row.data_type === "bigint" ? "integer" : row.data_type;
    (schema[row.table_name] ??= []).push(
      `${row.column_name} ${type} ${row.is_nullable === "YES" ? "null" : "not null"}`,
    );
  }
  for (const columns of Object.values(schema)) columns.sort();
  return schema;
}

function sqliteNames(type: "index" | "trigger"): string[] {
  // Indexes SQLite makes itself for PRIMARY KEY and UNIQUE constraints have no SQL (PostgreSQL's back constraints).
  const rows = sqlite
    .prepare("SELECT name FROM sqlite_master WHERE type = ? AND sql IS NOT NULL ORDER BY name")
    .all(type) as { name: string }[];
  return rows.map((row) => row.name);
}

async function postgresIndexes(): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `SELECT i.relname AS name FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
     JOIN pg_namespace n ON n.oid = t.relnamespace
     WHERE n.nspname = 'public' AND t.relname NOT LIKE 'kysely\\_%'
       AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)
     ORDER BY 1`,
  );
  return rows.map((row) => row.name);
}

async function postgresTriggers(): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `SELECT tgname AS name FROM pg_trigger WHERE NOT tgisinternal ORDER BY 1`,
  );
  return rows.map((row) => row.name);
}
