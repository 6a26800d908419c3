// Issue 27: the page cache of every process keeps its pages through private writes (a paid inquiry's
// count, a view, the owner's minimum offer) and drops them for public ones (a price), whichever process
// made the write. Two server processes on one database, on SQLite and on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { payInquiry } from "../support/admin";
import { removeDataDir, startAppServer, type AppServer } from "../support/app-server";
import { insertDomain, uniqueDomainName } from "../support/data";
import { request } from "../support/http";

let first: AppServer;
let second: AppServer;

beforeAll(async () => {
  first = await startAppServer();
  second = await startAppServer({ dataDir: first.dataDir });
}, 120_000);

afterAll(async () => {
  await second?.stop();
  await first?.stop();
  if (first) removeDataDir(first);
});

/** GETs a page until it is served from the cache. */
async function cached(app: AppServer, path: string) {
  for (let attempt = 0; attempt < 20; attempt++) {
    const reply = await request(app, path);
    if (reply.headers.get("x-cache") === "HIT") return reply;
  }
  throw new Error(`${path} never came from the cache`);
}

describe("only public changes empty the page cache, in every process", () => {
  it("a paid inquiry, views and a minimum offer leave cached pages in place; a price change reaches them", async () => {
    const name = uniqueDomainName("private");
    const short = name.replace(/\.com$/, "");
    const id = insertDomain(first.db(), { name, priceCents: 432_100 });
    const path = `/domain/${short}`;
    const before = { first: await cached(first, path), second: await cached(second, path) };
    expect(before.second.body).toContain("$4,321");

    // A buyer pays on the first server (the count goes up), views are counted, the owner sets a floor.
    await payInquiry(first, short);
    expect(first.db().prepare("SELECT inquiry_count FROM domains WHERE id = ?").get(id)).toEqual({ inquiry_count: 1 });
    for (let i = 0; i < 3; i++) await request(second, path);
    first.db().prepare("UPDATE domains SET min_offer_cents = ? WHERE id = ?").run(300_000, id);

    for (const [which, app] of [
      ["first", first],
      ["second", second],
    ] as const) {
      const after = await request(app, path);
      expect(after.headers.get("x-cache"), which).toBe("HIT");
      expect(after.headers.get("etag"), which).toBe(before[which].headers.get("etag"));
    }

    // A price changed by another connection (as a script or a third process would) shows on both.
    first.db().prepare("UPDATE domains SET asking_price_cents = ? WHERE id = ?").run(876_500, id);
    for (const app of [first, second]) {
      const page = await request(app, path);
      expect(page.body).toContain("$8,765");
      expect(page.headers.get("x-cache")).toBe("MISS");
    }
  });
});
