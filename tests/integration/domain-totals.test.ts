import { describe, expect, it } from "vitest";
import { useAppServer } from "../support/vitest-server";
import { insertDomain, uniqueDomainName } from "../support/data";
import { request } from "../support/http";

// The live-domain count and value are kept by triggers (migration 0031) rather than counted per request;
// they must equal a real count after every kind of write.

const app = useAppServer();

function expectTotalsToMatchTheRows() {
  const kept = app.db().prepare("SELECT live_count AS count, live_value_cents AS value FROM domain_totals").get();
  const counted = app
    .db()
    .prepare(
      "SELECT count(*) AS count, coalesce(sum(asking_price_cents), 0) AS value FROM domains WHERE deleted_at IS NULL",
    )
    .get();
  expect(kept).toEqual(counted);
  return kept as { count: number; value: number };
}

describe("precomputed domain totals", () => {
  it("stay equal to the live rows through inserts, price changes, soft and hard deletes", async () => {
    expect(expectTotalsToMatchTheRows().count).toBe(12);
    const id = insertDomain(app.db(), { name: uniqueDomainName("totals"), priceCents: 100_000 });
    insertDomain(app.db(), { name: uniqueDomainName("totals"), priceCents: 50_000 });
    expectTotalsToMatchTheRows();
    app.db().prepare("UPDATE domains SET asking_price_cents = 175000 WHERE id = ?").run(id);
    expectTotalsToMatchTheRows();
    app.db().prepare("UPDATE domains SET deleted_at = ? WHERE id = ?").run(new Date().toISOString(), id);
    expectTotalsToMatchTheRows();
    app.db().prepare("UPDATE domains SET asking_price_cents = 1 WHERE id = ?").run(id);
    expectTotalsToMatchTheRows();
    app.db().prepare("UPDATE domains SET deleted_at = NULL WHERE id = ?").run(id);
    expectTotalsToMatchTheRows();
    app.db().prepare("DELETE FROM domains WHERE id = ?").run(id);
    const totals = expectTotalsToMatchTheRows();

    const browse = await request(app, "/");
    expect(browse.body).toContain(`${totals.count} names`);
  });
});
