import Database from "better-sqlite3";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runScript } from "../support/app-server";
import { useAppServer } from "../support/vitest-server";
import { waitFor } from "../support/wait";

// Every write changes the content version, so each search below is rendered: lift the per-address search limit.
const app = useAppServer({ env: { SEARCHES_PER_MINUTE: "1000000" } });

describe("npm run backup", () => {
  it("copies the live database while the server serves and a writer commits rows; the copy has every row committed before it started", async () => {
    const db = app.db();
    const insert = db.prepare(
      `INSERT INTO domains (domain_name, asking_price_cents, tracking_id, owner_email, created_at, updated_at)
       VALUES (?, ?, 't', 'o@example.test', ?, ?)`,
    );
    const committed: string[] = [];
    const write = (n: number) => {
      const name = `backup-${n}-${process.pid}.com`;
      const now = new Date().toISOString();
      insert.run(name, 100 + n, now, now);
      committed.push(name);
    };
    db.transaction(() => {
      for (let n = 0; n < 3000; n++) write(n);
    })();

    // Keep writing (one commit every few ms) and keep the server busy for the whole backup.
    let next = 3000;
    const writer = setInterval(() => {
      for (let i = 0; i < 5; i++) write(next++);
    }, 2);
    let serving = true;
    const statuses: number[] = [];
    const traffic = (async () => {
      while (serving) statuses.push((await fetch(new URL("/?q=backup", app.url))).status);
    })();

    // Both under way: rows committed since, and pages answered.
    await waitFor(() => committed.length >= 3050 && statuses.length >= 3, 10_000, "writes and page traffic under way");
    const committedBeforeBackup = [...committed];
    const target = path.join(app.dataDir, "copies", "during-traffic.db");
    const result = await runScript(app, "backup.ts", [target]);
    const writtenDuring = committed.length - committedBeforeBackup.length;
    clearInterval(writer);
    serving = false;
    await traffic;

    expect(result.code, result.output).toBe(0);
    expect(result.output).toContain(`Backup written to ${target}`);
    expect(writtenDuring).toBeGreaterThan(0);
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.every((status) => status === 200)).toBe(true);

    const copy = new Database(target, { readonly: true });
    try {
      expect(copy.pragma("integrity_check", { simple: true })).toBe("ok");
      const names = new Set(copy.prepare("SELECT domain_name FROM domains").pluck().all() as string[]);
      const missing = committedBeforeBackup.filter((name) => !names.has(name));
      expect(missing).toEqual([]);
      expect(names.has("velora.com")).toBe(true);
      expect(copy.prepare("SELECT count(*) FROM settings").pluck().get()).toBeTypeOf("number");
    } finally {
      copy.close();
    }
    console.log(
      `backup under load: ${committedBeforeBackup.length} rows before, ${writtenDuring} commits during the backup, ${statuses.length} pages served; ${result.output.trim()}`,
    );
  });

  it("writes to data/backups/<timestamp>.db by default and never overwrites an existing file", async () => {
    const result = await runScript(app, "backup.ts");
    expect(result.code, result.output).toBe(0);
    const files = readdirSync(path.join(app.dataDir, "backups"));
    expect(files).toHaveLength(1); // one self-contained file: no -wal or -shm beside it
    expect(files[0]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z\.db$/);
    const again = await runScript(app, "backup.ts", [path.join(app.dataDir, "backups", files[0]!)]);
    expect(again.code).toBe(1);
    expect(again.output).toContain("already exists");
    expect(existsSync(path.join(app.dataDir, "backups", `${files[0]}.partial`))).toBe(false);
  });

  it("refuses a PostgreSQL DATABASE_URL and points to pg_dump, with or without SESSION_SECRET", async () => {
    const postgresUrl = "postgres://app:secret@127.0.0.1:1/app";
    const { SESSION_SECRET: _unused, ...withoutSecret } = app.env;
    for (const env of [
      { ...withoutSecret, DATABASE_URL: postgresUrl },
      { ...app.env, DATABASE_URL: postgresUrl, SESSION_SECRET: "s".repeat(32) },
    ]) {
      const result = await runScript({ env }, "backup.ts");
      expect(result.code, result.output).toBe(1);
      expect(result.output).toContain("DATABASE_URL names a PostgreSQL database");
      expect(result.output).toContain("pg_dump --format=custom");
    }
  });
});
