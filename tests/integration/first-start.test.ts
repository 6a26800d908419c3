import { describe, expect, it, vi } from "vitest";
import { verifyPassword } from "../../app/server/admin/passwords.server";
import { startAppServer } from "../support/app-server";
import { useTempFolders } from "../support/temp-folders";

// What a start puts into the database, on the engine of the project: the demo domains into a brand-new
// database only (which start-up tells by the tables it finds), and the admin from ADMIN_EMAIL and
// ADMIN_PASSWORD. The rest of start-up, much of it about the SQLite file: startup.test.ts.

// Every test starts its own processes; on a busy machine each start can take several seconds.
vi.setConfig({ testTimeout: 120_000 });

const freshDataDir = useTempFolders("domains-first-start-");

describe("first start and restarts", () => {
  it("seeds the demo domains only into a brand-new database", async () => {
    const dataDir = freshDataDir();
    const first = await startAppServer({ dataDir });
    const count = () => (first.db().prepare("SELECT count(*) AS n FROM domains").get() as { n: number }).n;
    expect(count()).toBe(12);
    // The owner empties the portfolio; a restart must not bring the demo back.
    first.db().prepare("DELETE FROM domains").run();
    await first.stop();
    const second = await startAppServer({ dataDir });
    try {
      const page = await (await fetch(new URL("/", second.url))).text();
      expect(page).toContain("No domains are listed yet.");
      expect(second.db().prepare("SELECT count(*) AS n FROM domains").get()).toEqual({ n: 0 });
    } finally {
      await second.stop();
    }
  });

  it("SEED_DEMO=false starts a brand-new database empty", async () => {
    const server = await startAppServer({ env: { SEED_DEMO: "false" } });
    try {
      const page = await (await fetch(new URL("/", server.url))).text();
      expect(page).toContain("No domains are listed yet.");
      expect(page).not.toContain("velora.com");
    } finally {
      await server.stop();
    }
  });

  it("ADMIN_EMAIL + ADMIN_PASSWORD create the admin, and a restart with a new password resets it", async () => {
    const dataDir = freshDataDir();
    // The admin is written before the server listens: read while it runs.
    const adminRows = async (env: Record<string, string>) => {
      const server = await startAppServer({ dataDir, env });
      try {
        return server.db().prepare("SELECT email, password_hash FROM users").all() as Array<{
          email: string;
          password_hash: string;
        }>;
      } finally {
        await server.stop();
      }
    };

    const created = await adminRows({ ADMIN_EMAIL: "Owner@Example.test", ADMIN_PASSWORD: "first-password" });
    expect(created.map((row) => row.email)).toEqual(["owner@example.test"]);
    expect(await verifyPassword("first-password", created[0]!.password_hash)).toBe(true);

    const reset = await adminRows({ ADMIN_EMAIL: "owner@example.test", ADMIN_PASSWORD: "second-password" });
    expect(reset).toHaveLength(1);
    expect(await verifyPassword("second-password", reset[0]!.password_hash)).toBe(true);
    expect(await verifyPassword("first-password", reset[0]!.password_hash)).toBe(false);
  });
});
