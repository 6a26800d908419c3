import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// A page view's reads (compiledOnce) run at once on the SQLite connection, past Kysely's queue for it
// (database.server.ts, readAtOnce), but only while no transaction is open there: in-process, on a real
// SQLite file, with a transaction held open across an await as the app's own writes do.
const dataDir = mkdtempSync(path.join(tmpdir(), "read-at-once-"));
let modules: {
  db: typeof import("../../app/server/db/database.server");
  dialect: typeof import("../../app/server/db/dialect.server");
  domains: typeof import("../../app/server/catalog/domains.server");
};

beforeAll(async () => {
  process.env.DATABASE_URL = `file:${path.join(dataDir, "app.db")}`;
  const db = await import("../../app/server/db/database.server");
  await db.migrateToLatest();
  modules = {
    db,
    dialect: await import("../../app/server/db/dialect.server"),
    domains: await import("../../app/server/catalog/domains.server"),
  };
});
afterAll(async () => {
  await modules.db.closeDatabase();
  rmSync(dataDir, { recursive: true, force: true });
});

const domain = (domainName: string) => ({
  domainName,
  askingPriceCents: 150_000,
  trackingId: domainName,
  ownerEmail: "owner@example.test",
});

/**
 * Whether `promise` has settled by the time the event loop has gone round a few times (the database is
 * synchronous and in this process: a read that can run has run by then).
 */
async function settledSoon(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let turn = 0; turn < 10; turn++) await new Promise(setImmediate);
  return settled;
}

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe("a page view's read on SQLite", () => {
  it("runs at once when no transaction is open, and is counted like any statement", async () => {
    const { insertDomain, findLiveDomainByName } = modules.domains;
    await insertDomain(domain("at-once.com"));
    const before = modules.db.statementsRun();
    const found = findLiveDomainByName("at-once.com");
    // Answered without waiting for Kysely's turn: the statement ran before this line.
    expect(modules.db.statementsRun()).toBe(before + 1);
    expect((await found)?.domain_name).toBe("at-once.com");
  });

  /**
   * A transaction that inserts `name`, then holds the connection until `finish` is called; the returned
   * `read` asked for the name while it was held (and had not answered a moment later).
   */
  async function readDuringTransaction(name: string, outcome: "commit" | "roll back") {
    const { insertDomain, findLiveDomainByName } = modules.domains;
    const held = gate();
    const written = gate();
    const transaction = modules.dialect.inTransaction(async (trx) => {
      await insertDomain(domain(name), trx);
      written.open();
      await held.opened;
      if (outcome === "roll back") throw new Error("rolled back on purpose");
    });
    await written.opened;
    const read = findLiveDomainByName(name);
    expect(await settledSoon(read)).toBe(false);
    held.open();
    return { transaction, read };
  }

  it("waits for a transaction open on the connection and never sees its uncommitted rows", async () => {
    const { transaction, read } = await readDuringTransaction("uncommitted.com", "roll back");
    await expect(transaction).rejects.toThrow("rolled back on purpose");
    expect(await read).toBeNull();
  });

  it("waits for a committing transaction, then sees what it wrote", async () => {
    const { transaction, read } = await readDuringTransaction("committed.com", "commit");
    await transaction;
    expect((await read)?.domain_name).toBe("committed.com");
  });
});
