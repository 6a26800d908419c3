import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openMigrationTestDatabase, type MigrationTestDatabase } from "../support/migrations";

// Migration 0220 (issue 34 finding 3) on the engine of the run: inquiries paid before it take the owner
// their domain has then, the best known; unpaid ones wait for their payment to set it.
let test: MigrationTestDatabase;
let db: MigrationTestDatabase["db"];

beforeAll(async () => {
  test = await openMigrationTestDatabase("inquiry-owner");
  db = test.db;
}, 60_000);

afterAll(async () => {
  await test?.close();
});

describe("migration 0220", () => {
  it("gives the paid inquiries their domain's owner email, trimmed, and the unpaid ones none", async () => {
    const { migrator } = test;
    expect((await migrator.migrateTo("0210_inquiry_asking_price")).error).toBeUndefined();
    await sql`INSERT INTO domains (id, domain_name, asking_price_cents, owner_email, created_at, updated_at)
              VALUES (70, 'kept.com', 100, '  Seller@Owners.example ', 't', 't')`.execute(db);
    const inquiry = (id: number, status: string, paidAt: string | null) =>
      sql`INSERT INTO inquiries (id, public_id, domain_id, domain_name, name, email, message, amount_cents, status,
            provider, created_at, paid_at)
          VALUES (${id}, ${`p${id}`}, 70, 'kept.com', 'n', 'e@x.test', 'm', 1999, ${status}, 'test', 't', ${paidAt})`.execute(
        db,
      );
    await inquiry(1, "paid", "t");
    await inquiry(2, "refunded", "t");
    await inquiry(3, "pending", null);
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const rows = await sql<{ id: number; owner_email: string | null }>`
      SELECT id, owner_email FROM inquiries ORDER BY id`.execute(db);
    expect(rows.rows.map((row) => [Number(row.id), row.owner_email])).toEqual([
      [1, "Seller@Owners.example"],
      [2, "Seller@Owners.example"],
      [3, null],
    ]);
  });
});
