import Database from "better-sqlite3";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { startAppServer } from "../support/app-server";
import { useTempFolders } from "../support/temp-folders";

// Every test starts its own processes; on a busy machine each start can take several seconds. The first
// start's seed and admin, on both engines: first-start.test.ts.
vi.setConfig({ testTimeout: 120_000 });

const freshDataDir = useTempFolders("domains-startup-");

/** Starts the server and expects it to stop at once; returns what it printed. */
async function expectStartFailure(env: Record<string, string>, dataDir = freshDataDir()): Promise<string> {
  const error = await startAppServer({ env, dataDir, timeoutMs: 120_000 }).then(
    async (server) => {
      await server.stop();
      throw new Error(`the server started although it should not have:\n${server.output()}`);
    },
    (failure: Error) => failure,
  );
  expect(error.message).toMatch(/server exited with 1/);
  return error.message;
}

describe("configuration is validated at start", () => {
  // Every variable's rules are unit-tested against the same parser (tests/unit/env.test.ts); these prove the process stops.
  it.each([
    { variable: "PORT", value: "abc" },
    { variable: "SITE_NAME", value: "x".repeat(81) },
    { variable: "DATABASE_URL", value: "nonsense" },
  ])("$variable=$value stops the process with a message naming $variable", async ({ variable, value }) => {
    const output = await expectStartFailure({ [variable]: value });
    expect(output).toContain(`${variable}:`);
    expect(output).not.toMatch(/\n\s+at .*\(/); // a message, not a stack trace
  });

  it("ADMIN_EMAIL without ADMIN_PASSWORD stops the process naming ADMIN_PASSWORD", async () => {
    const output = await expectStartFailure({ ADMIN_EMAIL: "owner@example.test" });
    expect(output).toContain("ADMIN_PASSWORD: required when ADMIN_EMAIL is set");
  });

  it("a database that cannot be opened stops the process with a message naming the path", async () => {
    const dir = freshDataDir();
    const notAFolder = path.join(dir, "plain-file");
    writeFileSync(notAFolder, "I am a file, not a folder");
    const dbPath = path.join(notAFolder, "app.db");
    const output = await expectStartFailure({ DATABASE_URL: `file:${dbPath}` }, dir);
    expect(output).toContain(`Cannot open the database at ${dbPath}`);
  });

  it("a database file that is not SQLite stops the process with a message naming the path", async () => {
    const dir = freshDataDir();
    const dbPath = path.join(dir, "app.db");
    writeFileSync(dbPath, "this is not a database ".repeat(200));
    const output = await expectStartFailure({ DATABASE_URL: `file:${dbPath}` }, dir);
    expect(output).toContain(dbPath);
  });
});

describe("first start and restarts", () => {
  it("serves pages when NODE_ENV is not set (as `npm start` runs it)", async () => {
    const server = await startAppServer({ env: { NODE_ENV: "" } });
    try {
      for (const path of ["/", "/domain/velora", "/domain/not-listed-here", "/payment/velora"]) {
        const response = await fetch(new URL(path, server.url));
        expect(response.status, path).toBeLessThan(500);
        expect(await response.text(), path).toContain("</html>");
      }
      expect(server.output()).not.toMatch(/TypeError|Unexpected Server Error/);
    } finally {
      await server.stop();
    }
  });

  it("generates SESSION_SECRET once, keeps it in the data folder and reuses it after a restart", async () => {
    const dataDir = freshDataDir();
    const first = await startAppServer({ dataDir });
    await first.stop();
    const secretFile = path.join(dataDir, "session-secret");
    const secret = readFileSync(secretFile, "utf8").trim();
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    const second = await startAppServer({ dataDir });
    expect((await fetch(new URL("/healthz", second.url))).status).toBe(200);
    expect(await second.stop()).toBe(0);
    expect(readFileSync(secretFile, "utf8").trim()).toBe(secret);
  });

  it("drops the sqlite_stat4 samples a full ANALYZE left and keeps the other planner statistics", async () => {
    // With samples SQLite prepares a search of an indexed column again on every run (planner-stats.server.ts).
    const dataDir = freshDataDir();
    const dbPath = path.join(dataDir, "app.db");
    await (await startAppServer({ dataDir })).stop();
    const db = new Database(dbPath);
    db.exec("PRAGMA analysis_limit = 0; ANALYZE;");
    const samples = () => (db.prepare("SELECT count(*) AS n FROM sqlite_stat4").get() as { n: number }).n;
    const stats = () => (db.prepare("SELECT count(*) AS n FROM sqlite_stat1").get() as { n: number }).n;
    expect(samples()).toBeGreaterThan(0);
    const server = await startAppServer({ dataDir });
    await vi.waitFor(() => expect(samples()).toBe(0), { timeout: 10_000 });
    expect(stats()).toBeGreaterThan(0);
    expect(server.output()).toContain("sqlite_stat4 samples dropped");
    expect((await fetch(new URL("/domain/velora", server.url))).status).toBe(200);
    db.close();
    await server.stop();
  });
});
