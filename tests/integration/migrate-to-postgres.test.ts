// `npm run migrate-to-postgres -- <sqlite file> <postgres url>` (issue 15): the demo database with paid
// and refunded inquiries, and a 100,000-domain one, copied into empty PostgreSQL databases with every
// row, id, sum and sequence kept; a target that already holds data is refused and left as it was, also
// when the data arrives while the copy waits for its lock (issue 22); NULs in SQLite text are stripped.
import Database from "better-sqlite3";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { removeDataDir, runScript, startAppServer, type AppServer } from "../support/app-server";
import { adminCookie, TEST_ADMIN } from "../support/admin";
import { newDomain, payInquiry } from "../support/refund-promise";
import { createTestDatabase } from "../support/postgres";
import { waitFor } from "../support/wait";
import { http } from "./admin-helpers";

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

function migrateToPostgres(args: string[]) {
  return runScript({ env: { ENV_FILE: "/dev/null" } }, "migrate-to-postgres.ts", args);
}

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  cleanups.push(() => client.end());
  return client;
}

/** Every table's rows on both sides, compared as text (ids, cents and times alike). */
async function expectSameRows(sqliteFile: string, client: pg.Client, tables: string[]) {
  const sqlite = new Database(sqliteFile, { readonly: true });
  try {
    for (const table of tables) {
      const key =
        table === "settings"
          ? "key"
          : table === "domain_daily_views"
            ? "domain_id, day"
            : table === "processed_events"
              ? "id"
              : "1";
      const expected = (
        sqlite.prepare(`SELECT * FROM ${table} ORDER BY ${key}`).all() as Record<string, unknown>[]
      ).map(asText);
      const actual = (await client.query(`SELECT * FROM ${table} ORDER BY ${key}`)).rows.map(asText);
      expect(actual, table).toEqual(expected);
    }
  } finally {
    sqlite.close();
  }
}

function asText(row: Record<string, unknown>): Record<string, string | null> {
  return Object.fromEntries(
    Object.entries(row).map(([column, value]) => [column, value === null ? null : String(value)]),
  );
}

/** The `table  check  sqlite  postgres  ok` lines the command prints, as { "domains rows": ["12", "12", "ok"] }. */
function checksIn(output: string): Record<string, string[]> {
  const checks: Record<string, string[]> = {};
  for (const line of output.split("\n")) {
    const match = /^(\w+)\s+(rows|sum\(\w+\))\s+(-?\d+)\s+(-?\d+)\s+(ok|MISMATCH)$/.exec(line.trim());
    if (match) checks[`${match[1]} ${match[2]}`] = [match[3]!, match[4]!, match[5]!];
  }
  return checks;
}

describe("npm run migrate-to-postgres", () => {
  let demo: AppServer;

  // Each step starts a process (tsx): slow on a loaded machine.
  it(
    "copies the demo database with paid and refunded inquiries: every row, id and sequence, counts and sums verified",
    { timeout: 240_000 },
    async () => {
      demo = await startAppServer({ env: { ADMIN_EMAIL: TEST_ADMIN.email, ADMIN_PASSWORD: TEST_ADMIN.password } });
      cleanups.push(() => removeDataDir(demo));
      const domain = newDomain(demo, { prefix: "copy" });
      const paid = await payInquiry(demo, domain);
      await payInquiry(demo, domain, { name: "Second Buyer" });
      const refunded = await payInquiry(demo, domain, { name: "Third Buyer" });
      // A refund through the admin inbox (the trigger takes it out of the domain's count), and a deleted domain.
      const cookie = await adminCookie(demo.url);
      const refund = await http(demo, "/admin/inquiries", {
        cookie,
        form: { intent: "refund", id: String(refunded.id), confirmed: "1" },
      });
      expect(refund.location).toContain("notice=inquiry-refunded");
      demo.db().prepare("DELETE FROM domains WHERE id = (SELECT max(id) FROM domains WHERE id <> ?)").run(domain.id);
      const counts = demo.db().prepare("SELECT inquiry_count FROM domains WHERE id = ?").get(domain.id) as {
        inquiry_count: number;
      };
      expect(counts.inquiry_count).toBe(2);
      expect(
        (demo.db().prepare("SELECT status FROM inquiries WHERE id = ?").get(refunded.id) as { status: string }).status,
      ).toBe("refunded");
      expect(paid.status).toBe("paid");
      expect(await demo.stop()).toBe(0);

      const targetUrl = await createTestDatabase();
      const result = await migrateToPostgres([demo.dbPath, targetUrl]);
      expect(result.code, result.output).toBe(0);
      const checks = checksIn(result.output);
      const sqlite = new Database(demo.dbPath, { readonly: true });
      const tables = (
        sqlite
          .prepare(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'kysely_%' ORDER BY name",
          )
          .all() as { name: string }[]
      ).map((row) => row.name);
      const maxDomainId = (
        sqlite.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'domains'").get() as { seq: number }
      ).seq;
      const domainCount = (sqlite.prepare("SELECT count(*) AS n FROM domains").get() as { n: number }).n;
      sqlite.close();
      for (const table of tables)
        expect(checks[`${table} rows`]?.[2], `${table} rows in:\n${result.output}`).toBe("ok");
      expect(domainCount).toBe(12); // 12 demo domains, one added, one deleted
      expect(checks["domains rows"]).toEqual(["12", "12", "ok"]);
      expect(checks["inquiries rows"]).toEqual(["3", "3", "ok"]);
      expect(checks["inquiries sum(amount_cents)"]?.[2]).toBe("ok");
      expect(checks["domains sum(asking_price_cents)"]?.[2]).toBe("ok");

      const client = await connect(targetUrl);
      await expectSameRows(demo.dbPath, client, tables);
      // The counters were copied, not recounted, and the triggers work again afterwards.
      const totals = await client.query("SELECT live_count, live_value_cents::text AS cents FROM domain_totals");
      const counted = await client.query(
        "SELECT count(*)::int AS n, sum(asking_price_cents)::text AS cents FROM domains WHERE deleted_at IS NULL",
      );
      expect(totals.rows[0]).toEqual({ live_count: counted.rows[0].n, cents: counted.rows[0].cents });
      // New rows continue after the highest id SQLite ever gave (the deleted domain's id is not reused).
      const inserted = await client.query(
        `INSERT INTO domains (domain_name, asking_price_cents, created_at, updated_at) VALUES ('after-copy.com', 5, 't', 't') RETURNING id`,
      );
      expect(inserted.rows[0].id).toBe(maxDomainId + 1);
      expect((await client.query("SELECT live_count FROM domain_totals")).rows[0].live_count).toBe(
        counted.rows[0].n + 1,
      );
      const migrations = await client.query("SELECT count(*)::int AS n FROM kysely_migration");
      expect(migrations.rows[0].n).toBeGreaterThan(0);
    },
  );

  it("refuses a target that already holds data, and leaves it as it was", { timeout: 240_000 }, async () => {
    const targetUrl = await createTestDatabase();
    const client = await connect(targetUrl);
    await client.query("CREATE TABLE notes (id serial PRIMARY KEY, body text)");
    await client.query("INSERT INTO notes (body) VALUES ('keep me')");
    const refused = await migrateToPostgres([demo.dbPath, targetUrl]);
    expect(refused.code).not.toBe(0);
    expect(refused.output).toContain("the target database is not empty (rows in notes)");
    expect(refused.output).toContain("Nothing was copied");
    const tables = await client.query("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'");
    expect(tables.rows).toEqual([{ table_name: "notes" }]);

    // A database the app has already run on (migrated and seeded) is refused too.
    const copied = await createTestDatabase();
    expect((await migrateToPostgres([demo.dbPath, copied])).code).toBe(0);
    const again = await migrateToPostgres([demo.dbPath, copied]);
    expect(again.code).not.toBe(0);
    expect(again.output).toMatch(/not empty \(rows in [a-z_, ]*domains/);

    const usage = await migrateToPostgres([demo.dbPath]);
    expect(usage.code).toBe(2);
    expect(usage.output).toContain("Usage: npm run migrate-to-postgres");
  });

  it("strips NUL characters, which PostgreSQL text cannot hold, and says how many", { timeout: 240_000 }, async () => {
    const folder = mkdtempSync(path.join(tmpdir(), "domains-nul-"));
    cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
    const file = path.join(folder, "app.db");
    copyFileSync(demo.dbPath, file);
    const sqlite = new Database(file);
    // Older versions stored the inquiry form's text as it came.
    const { id } = sqlite.prepare("SELECT min(id) AS id FROM inquiries").get() as { id: number };
    const update = sqlite.prepare("UPDATE inquiries SET message = ?, name = ? WHERE id = ?");
    update.run("Hello\u0000 there\u0000", "Nul\u0000 Buyer", id);
    sqlite.close();

    const targetUrl = await createTestDatabase();
    const result = await migrateToPostgres([file, targetUrl]);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toContain("Stripped 3 NUL characters");
    expect(result.output).toContain("inquiries.name: 1");
    expect(result.output).toContain("inquiries.message: 2");
    const client = await connect(targetUrl);
    const copied = await client.query("SELECT name, message FROM inquiries WHERE id = $1", [id]);
    expect(copied.rows[0]).toEqual({ name: "Nul Buyer", message: "Hello there" });
  });

  it("refuses rows another process commits while the copy waits for its lock", { timeout: 240_000 }, async () => {
    // A target the app has migrated but not yet used: empty, so the first check passes.
    const targetUrl = await createTestDatabase();
    const secret = "copy-test-secret-0123456789abcdef";
    const migrateEnv = { DATABASE_URL: targetUrl, SESSION_SECRET: secret, ENV_FILE: "/dev/null" };
    const migrated = await runScript({ env: migrateEnv }, "migrate.ts");
    expect(migrated.code, migrated.output).toBe(0);
    const writer = await connect(targetUrl);
    const watcher = await connect(targetUrl);
    // Another process writes a domain; it commits once the copy is waiting on a lock its write holds.
    await writer.query("BEGIN");
    await writer.query(
      `INSERT INTO domains (domain_name, asking_price_cents, created_at, updated_at)
       VALUES ('written-meanwhile.com', 700, 't', 't')`,
    );
    const copy = migrateToPostgres([demo.dbPath, targetUrl]);
    await waitFor(
      async () => {
        const waiting = await watcher.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity
           WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
        return waiting.rows[0].n > 0;
      },
      120_000,
      "the copy to wait for the writer's lock",
    );
    await writer.query("COMMIT");
    const result = await copy;
    expect(result.code, result.output).not.toBe(0);
    expect(result.output).toContain("the target database is not empty (rows in domains)");
    const domains = await watcher.query("SELECT domain_name FROM domains");
    expect(domains.rows).toEqual([{ domain_name: "written-meanwhile.com" }]);
  });

  it("copies a 100,000-domain database with counts and sums verified", { timeout: 600_000 }, async () => {
    const folder = mkdtempSync(path.join(tmpdir(), "domains-many-"));
    cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
    const file = path.join(folder, "app.db");
    const seeded = await runScript(
      { env: { DATABASE_URL: `file:${file}`, ENV_FILE: "/dev/null", SEED_DEMO: "false" } },
      "seed-many.ts",
      ["100000"],
    );
    expect(seeded.code, seeded.output).toBe(0);

    const targetUrl = await createTestDatabase();
    const result = await migrateToPostgres([file, targetUrl]);
    expect(result.code, result.output).toBe(0);
    const checks = checksIn(result.output);
    expect(checks["domains rows"]).toEqual(["100000", "100000", "ok"]);
    expect(checks["domains sum(id)"]?.[2]).toBe("ok");
    expect(checks["domains sum(asking_price_cents)"]?.[2]).toBe("ok");
    expect(Object.values(checks).every((check) => check[2] === "ok")).toBe(true);

    const client = await connect(targetUrl);
    const sqlite = new Database(file, { readonly: true });
    const expected = sqlite.prepare("SELECT live_count, live_value_cents FROM domain_totals").get() as {
      live_count: number;
      live_value_cents: number;
    };
    sqlite.close();
    const totals = await client.query("SELECT live_count, live_value_cents::text AS cents FROM domain_totals");
    expect(totals.rows[0]).toEqual({ live_count: expected.live_count, cents: String(expected.live_value_cents) });
    expect(expected.live_count).toBe(100_000);
  });
});
