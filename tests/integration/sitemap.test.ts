import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeDataDir, startAppServer, type AppServer } from "../support/app-server";
import { insertRows } from "../support/data";
import { requestWithHost } from "../support/raw-http";
import { parseXml, type XmlElement } from "../support/xml";

const NS = "http://www.sitemaps.org/schemas/sitemap/0.9";
let app: AppServer;

beforeAll(async () => {
  app = await startAppServer({ env: { SEED_DEMO: "false" } });
});
afterAll(async () => {
  if (process.env.SHOW_SERVER_OUTPUT) console.log(app.output());
  await app.stop();
  removeDataDir(app);
});

/** Inserts `count` domains in one transaction (test setup), named `${tag}-{n}.com` / `.io`. */
function insertMany(tag: string, count: number): string[] {
  const names = Array.from({ length: count }, (_, i) => `${tag}-${i}.${i % 2 ? "com" : "io"}`);
  const now = new Date().toISOString();
  const row = (name: string) => ({
    domain_name: name,
    asking_price_cents: 100,
    tracking_id: "t",
    owner_email: "",
    created_at: now,
    updated_at: now,
  });
  insertRows(app.db(), "domains", names.map(row));
  return names;
}

function liveNames(): string[] {
  return app.db().prepare("SELECT domain_name FROM domains WHERE deleted_at IS NULL").pluck().all() as string[];
}

function expectedLoc(origin: string, name: string): string {
  const short = name.replace(/\.com$/, "");
  return `${origin}/domain/${encodeURIComponent(short)}`;
}

function locs(urlset: XmlElement): string[] {
  expect(urlset.name).toBe("urlset");
  expect(urlset.attributes.xmlns).toBe(NS);
  return urlset.children.map((url) => {
    expect(url.name).toBe("url");
    const loc = url.children.find((child) => child.name === "loc");
    const lastmod = url.children.find((child) => child.name === "lastmod");
    if (lastmod) expect(lastmod.text).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    return loc!.text;
  });
}

async function getText(path: string, host = "localhost") {
  const response = await requestWithHost(app.url, path, host);
  expect(response.status, path).toBe(200);
  return response;
}

describe("robots.txt", () => {
  it("allows public pages, keeps crawlers out of /admin and /payment and names the sitemap", async () => {
    const port = new URL(app.url).port;
    const robots = await getText("/robots.txt", `localhost:${port}`);
    expect(robots.headers["content-type"]).toContain("text/plain");
    const lines = robots.body.split("\n");
    expect(lines).toEqual(
      expect.arrayContaining([
        "User-agent: *",
        "Allow: /",
        "Disallow: /admin",
        "Disallow: /payment",
        `Sitemap: http://localhost:${port}/sitemap.xml`,
      ]),
    );
  });
});

describe("sitemap.xml", () => {
  it("lists the home page and every live domain page, as valid XML, from the request's origin", async () => {
    insertMany("small", 2_500);
    const hostile = `x</script><script>alert(1)</script>&amp.com`;
    app
      .db()
      .prepare("INSERT INTO domains (domain_name, asking_price_cents, created_at, updated_at) VALUES (?, 1, ?, ?)")
      .run(hostile, "2026-01-01T00:00:00Z", "2026-01-01T00:00:00Z");
    const deleted = "deleted-one.com";
    app
      .db()
      .prepare(
        "INSERT INTO domains (domain_name, asking_price_cents, created_at, updated_at, deleted_at) VALUES (?, 1, ?, ?, ?)",
      )
      .run(deleted, "2026-01-01", "2026-01-01", "2026-01-02");
    const port = new URL(app.url).port;
    const origin = `http://127.0.0.1:${port}`;
    const response = await getText("/sitemap.xml", `127.0.0.1:${port}`);
    expect(response.headers["content-type"]).toContain("application/xml");
    const urls = locs(parseXml(response.body));
    const expected = [`${origin}/`, ...liveNames().map((name) => expectedLoc(origin, name))];
    expect(urls.length).toBe(2_502);
    expect(new Set(urls)).toEqual(new Set(expected));
    expect(urls).not.toContain(expectedLoc(origin, deleted));
    expect(urls).toContain(
      `${origin}/domain/velora`.replace("velora", encodeURIComponent("x</script><script>alert(1)</script>&amp")),
    );
  });

  it(
    "becomes an index of parts beyond 50,000 URLs, together listing every domain exactly once",
    { timeout: 120_000 },
    async () => {
      insertMany("big", 100_000 - liveNames().length);
      expect(liveNames().length).toBe(100_000);
      const origin = "http://127.0.0.1";
      const index = parseXml((await getText("/sitemap.xml", "127.0.0.1")).body);
      expect(index.name).toBe("sitemapindex");
      expect(index.attributes.xmlns).toBe(NS);
      const parts = index.children.map((sitemap) => sitemap.children.find((child) => child.name === "loc")!.text);
      expect(parts).toEqual([`${origin}/sitemaps/1.xml`, `${origin}/sitemaps/2.xml`, `${origin}/sitemaps/3.xml`]);
      const all: string[] = [];
      for (const part of parts) {
        const urls = locs(parseXml((await getText(new URL(part).pathname, "127.0.0.1")).body));
        expect(urls.length).toBeLessThanOrEqual(50_000);
        all.push(...urls);
      }
      expect(all.length).toBe(100_001);
      expect(new Set(all)).toEqual(new Set([`${origin}/`, ...liveNames().map((name) => expectedLoc(origin, name))]));
      expect((await requestWithHost(app.url, "/sitemaps/4.xml", "127.0.0.1")).status).toBe(404);
      expect((await requestWithHost(app.url, "/sitemaps/0.xml", "127.0.0.1")).status).toBe(404);
      expect((await requestWithHost(app.url, "/sitemaps/x.xml", "127.0.0.1")).status).toBe(404);
    },
  );
});
