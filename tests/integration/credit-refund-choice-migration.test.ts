import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openMigrationTestDatabase, type MigrationTestDatabase } from "../support/migrations";

// Migration 0230 (issue 34 item 4) on the engine of the run: an inquiry paid with a credit on which the old
// code accepted "Refund my fee" (never refunded, never re-credited) loses that choice, so the refund pass
// gives it its new credit; every other choice stays.
let test: MigrationTestDatabase;
let db: MigrationTestDatabase["db"];

beforeAll(async () => {
  test = await openMigrationTestDatabase("credit-refund-choice");
  db = test.db;
}, 60_000);

afterAll(async () => {
  await test?.close();
});

describe("migration 0230", () => {
  it("clears the refund choice of credit-paid inquiries never re-credited, and no other choice", async () => {
    const { migrator } = test;
    expect((await migrator.migrateTo("0220_inquiry_owner_email")).error).toBeUndefined();
    await sql`INSERT INTO domains (id, domain_name, asking_price_cents, owner_email, created_at, updated_at)
              VALUES (80, 'silent.com', 100, 'seller@owners.example', 't', 't')`.execute(db);
    const inquiry = (id: number, fields: { status: string; provider: string; choice: string; credited?: string }) =>
      sql`INSERT INTO inquiries (id, public_id, domain_id, domain_name, name, email, message, amount_cents, status,
            provider, created_at, paid_at, reply_deadline_at, fee_choice, credited_at)
          VALUES (${id}, ${`c${id}`}, 80, 'silent.com', 'n', 'e@x.test', 'm', 1999, ${fields.status},
            ${fields.provider}, 't', 't', '2026-01-01T00:00:00.000Z', ${fields.choice}, ${fields.credited ?? null})`.execute(
        db,
      );
    await inquiry(1, { status: "paid", provider: "credit", choice: "refund" }); // the damaged one
    await inquiry(2, { status: "paid", provider: "stripe", choice: "refund" }); // a card's refund under way
    await inquiry(3, { status: "refunded", provider: "stripe", choice: "refund" });
    await inquiry(4, { status: "paid", provider: "credit", choice: "credit", credited: "t" });
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const rows = await sql<{ id: number; fee_choice: string | null; credited_at: string | null }>`
      SELECT id, fee_choice, credited_at FROM inquiries ORDER BY id`.execute(db);
    expect(rows.rows.map((row) => [Number(row.id), row.fee_choice, row.credited_at])).toEqual([
      [1, null, null],
      [2, "refund", null],
      [3, "refund", null],
      [4, "credit", "t"],
    ]);
  });
});
