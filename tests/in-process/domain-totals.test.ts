import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { db } from "../../app/server/db/database.server";
import { nowIso } from "../../app/server/runtime/clock.server";
import { createDomain } from "../support/factories";
import { render } from "../support/in-process/document";

// The live-domain count and value are kept by triggers (migration 0031) rather than counted per request;
// they must equal a real count after every kind of write, those no screen makes (a hard delete, an
// undelete) included: the writes here are the database's, on purpose.

async function expectTotalsToMatchTheRows() {
  const kept = await db
    .selectFrom("domain_totals")
    .select(["live_count as count", "live_value_cents as value"])
    .executeTakeFirstOrThrow();
  const counted = await db
    .selectFrom("domains")
    .select((eb) => [
      eb.fn.countAll<number>().as("count"),
      eb.fn.coalesce(eb.fn.sum<number>("asking_price_cents"), sql<number>`0`).as("value"),
    ])
    .where("deleted_at", "is", null)
    .executeTakeFirstOrThrow();
  const totals = { count: Number(kept.count), value: Number(kept.value) };
  expect(totals).toEqual({ count: Number(counted.count), value: Number(counted.value) });
  return totals;
}

describe("precomputed domain totals", () => {
  it("stay equal to the live rows through inserts, price changes, soft and hard deletes", async () => {
    expect((await expectTotalsToMatchTheRows()).count).toBe(12);
    const { id } = await createDomain({ prefix: "totals", priceCents: 100_000 });
    await createDomain({ prefix: "totals", priceCents: 50_000 });
    await expectTotalsToMatchTheRows();
    const update = (values: { asking_price_cents?: number; deleted_at?: string | null }) =>
      db.updateTable("domains").set(values).where("id", "=", id).execute();
    await update({ asking_price_cents: 175_000 });
    await expectTotalsToMatchTheRows();
    await update({ deleted_at: nowIso() });
    await expectTotalsToMatchTheRows();
    await update({ asking_price_cents: 1 });
    await expectTotalsToMatchTheRows();
    await update({ deleted_at: null });
    await expectTotalsToMatchTheRows();
    await db.deleteFrom("domains").where("id", "=", id).execute();
    const totals = await expectTotalsToMatchTheRows();

    const browse = await render("/");
    expect(browse.body).toContain(`${totals.count} names`);
  });
});
