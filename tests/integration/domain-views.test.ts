import type Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { removeDataDir, startAppServer } from "../support/app-server";
import { useAppServer } from "../support/vitest-server";
import { insertDomain, uniqueDomainName } from "../support/data";
import { BOT_USER_AGENT, requestWithHost } from "../support/raw-http";
import { waitFor } from "../support/wait";

const app = useAppServer();

function viewsIn(db: Database.Database, domainId: number) {
  const daily = db.prepare("SELECT day, views FROM domain_daily_views WHERE domain_id = ?").all(domainId) as {
    day: string;
    views: number;
  }[];
  const total =
    (
      db.prepare("SELECT views FROM domain_view_totals WHERE domain_id = ?").get(domainId) as
        { views: number } | undefined
    )?.views ?? 0;
  return { daily, total };
}

async function waitForViews(domainId: number, expected: number) {
  await waitFor(() => viewsIn(app.db(), domainId).total >= expected, 10_000, `${expected} views counted`).catch(
    () => {},
  );
  return viewsIn(app.db(), domainId);
}

/**
 * Waits for a flush that comes after every request so far: one more real visit (to a domain of its own)
 * is written, and a flush writes everything counted before it in one transaction.
 */
async function untilFlushed() {
  const marker = uniqueDomainName("flushmark");
  const markerId = insertDomain(app.db(), { name: marker, priceCents: 10_000 });
  await requestWithHost(app.url, `/domain/${marker.replace(/\.com$/, "")}`, "localhost");
  await waitFor(() => viewsIn(app.db(), markerId).total > 0, 10_000, "the next flush of the view counts");
}

describe("per-domain page views", () => {
  it("counts real visits to the domain page and its lander, not bots, HEAD requests or prefetches", async () => {
    const name = uniqueDomainName("views");
    const id = insertDomain(app.db(), { name, priceCents: 10_000 });
    const short = name.replace(/\.com$/, "");
    const visits = [
      requestWithHost(app.url, `/domain/${short}`, "localhost"),
      requestWithHost(app.url, `/domain/${short}`, "localhost"),
      requestWithHost(app.url, `/domain/${name}`, "localhost"),
      requestWithHost(app.url, "/", name),
      requestWithHost(app.url, "/", `www.${name}:3000`),
    ];
    const ignored = [
      requestWithHost(app.url, `/domain/${short}`, "localhost", { headers: { "User-Agent": BOT_USER_AGENT } }),
      requestWithHost(app.url, "/", name, { headers: { "User-Agent": BOT_USER_AGENT } }),
      requestWithHost(app.url, `/domain/${short}`, "localhost", { headers: { "User-Agent": "curl/8.5.0" } }),
      requestWithHost(app.url, `/domain/${short}`, "localhost", { method: "HEAD" }),
      requestWithHost(app.url, `/domain/${short}`, "localhost", { headers: { "Sec-Purpose": "prefetch" } }),
      requestWithHost(app.url, `/domain/${short}`, "localhost", { headers: { "Sec-Purpose": "prefetch;prerender" } }),
      requestWithHost(app.url, `/domain/${short}`, "localhost", { headers: { Purpose: "prefetch" } }),
      requestWithHost(app.url, "/domain/not-this-one-at-all", "localhost"),
    ];
    for (const response of await Promise.all([...visits, ...ignored])) {
      expect(response.headers["set-cookie"]).toBeUndefined();
    }
    const counted = await waitForViews(id, 5);
    expect(counted.total).toBe(5);
    expect(counted.daily).toEqual([{ day: new Date().toISOString().slice(0, 10), views: 5 }]);
    // Nothing else trickles in later: a flush after every request has nothing more for this domain.
    await untilFlushed();
    expect(viewsIn(app.db(), id).total).toBe(5);
  });

  it("keeps only a daily count: the table has no column for visitor data", () => {
    const columns = app
      .db()
      .prepare(
        app.database === "postgres"
          ? "SELECT column_name FROM information_schema.columns WHERE table_name = 'domain_daily_views' ORDER BY ordinal_position"
          : "SELECT name FROM pragma_table_info('domain_daily_views')",
      )
      .pluck()
      .all();
    expect(columns).toEqual(["domain_id", "day", "views"]);
  });

  it("writes buffered views when the server stops", async () => {
    const server = await startAppServer({ env: { SEED_DEMO: "false" } });
    try {
      const name = uniqueDomainName("flush");
      const id = insertDomain(server.db(), { name, priceCents: 100 });
      await requestWithHost(server.url, "/", name);
      await requestWithHost(server.url, "/", name);
      expect(await server.stop("SIGTERM"), server.output()).toBe(0);
      // A new connection (stop closed the test's): on SQLite the file the server left.
      expect(viewsIn(server.db(), id).total, server.output()).toBe(2);
    } finally {
      await server.stop();
      removeDataDir(server);
    }
  });
});
