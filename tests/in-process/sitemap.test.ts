import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { categoryPath } from "../../app/lib/categories";
import { softDeleteDomain } from "../../app/server/admin/admin-domains.server";
import { exportPortfolioCsv, importPortfolioCsv } from "../../app/server/admin/portfolio-csv.server";
import { categoryCounts } from "../../app/server/catalog/categories.server";
import { insertDomain, liveDomainTotals } from "../../app/server/catalog/domains.server";
import { createDomain } from "../support/factories";
import { letterTag } from "../support/data";
import { render } from "../support/in-process/document";
import { parseXml, type XmlElement } from "../support/xml";

// robots.txt and the sitemap are what a crawler reads: origins come from the request (its Host), as on the
// server. The template database holds the demo seed, so the expected URLs include its names and categories.
const NS = "http://www.sitemaps.org/schemas/sitemap/0.9";

/** Adds `count` domains through the admin's CSV import, named `${tag}-{n}.io` / `.com`. */
async function importMany(tag: string, count: number): Promise<string[]> {
  const names = Array.from({ length: count }, (_, i) => `${tag}-${i}.${i % 2 ? "com" : "io"}`);
  const result = await importPortfolioCsv(names.map((name) => `${name},1.00,t,`).join("\n"));
  expect(result).toMatchObject({ ok: true, added: count });
  return names;
}

/** Every live domain's name, as the admin's portfolio export lists them. */
async function liveNames(): Promise<string[]> {
  const text = await new Response(exportPortfolioCsv()).text();
  const rows = parse(text, { columns: true }) as Array<{ domain: string }>;
  return rows.map((row) => row.domain);
}

function expectedLoc(origin: string, name: string): string {
  const short = name.replace(/\.com$/, "");
  return `${origin}/domain/${encodeURIComponent(short)}`;
}

async function expectedUrls(origin: string, names: string[]): Promise<string[]> {
  const categories = (await categoryCounts()).map((category) => `${origin}${categoryPath(category.slug)}`);
  return [`${origin}/`, ...categories, ...names.map((name) => expectedLoc(origin, name))];
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

/** A GET as the server passes it on: the URL's origin is the request's Host. */
async function getText(path: string, host: string) {
  const page = await render(`http://${host}${path}`, { headers: { Host: host } });
  expect(page.status, path).toBe(200);
  return page;
}

describe("robots.txt", () => {
  it("allows public pages, keeps crawlers out of /admin and /payment and names the sitemap", async () => {
    const robots = await getText("/robots.txt", "localhost:4321");
    expect(robots.headers.get("content-type")).toContain("text/plain");
    const lines = robots.body.split("\n");
    expect(lines).toEqual(
      expect.arrayContaining([
        "User-agent: *",
        "Allow: /",
        "Disallow: /admin",
        "Disallow: /payment",
        "Sitemap: http://localhost:4321/sitemap.xml",
      ]),
    );
  });
});

describe("sitemap.xml", () => {
  it("lists the home page and every live domain page, as valid XML, from the request's origin", async () => {
    await importMany(letterTag("small", 4), 2_500);
    // A name stored before the form's rules (an old import), as it is kept: the XML escapes it.
    const hostile = `x</script><script>alert(1)</script>&amp.com`;
    await insertDomain({ domainName: hostile, askingPriceCents: 1, trackingId: "", ownerEmail: "" });
    const deleted = await createDomain({ prefix: "deleted" });
    await softDeleteDomain(deleted.id);
    const origin = "http://127.0.0.1:4321";
    const response = await getText("/sitemap.xml", "127.0.0.1:4321");
    expect(response.headers.get("content-type")).toContain("application/xml");
    const urls = locs(parseXml(response.body));
    const expected = await expectedUrls(origin, await liveNames());
    expect(expected.length).toBeGreaterThan(2_502);
    expect(urls.length).toBe(expected.length);
    expect(new Set(urls)).toEqual(new Set(expected));
    expect(urls).not.toContain(expectedLoc(origin, deleted.domain_name));
    expect(urls).toContain(`${origin}/domain/${encodeURIComponent("x</script><script>alert(1)</script>&amp")}`);
  });

  it(
    "becomes an index of parts beyond 50,000 URLs, together listing every domain exactly once",
    { timeout: 120_000 },
    async () => {
      const listed = await liveNames();
      const names = [...listed, ...(await importMany(letterTag("big", 4), 100_000 - listed.length))];
      expect((await liveDomainTotals()).count).toBe(100_000);
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
      const expected = await expectedUrls(origin, names);
      expect(all.length).toBe(expected.length);
      expect(new Set(all)).toEqual(new Set(expected));
      for (const missing of ["/sitemaps/4.xml", "/sitemaps/0.xml", "/sitemaps/x.xml"])
        expect((await render(`${origin}${missing}`, { headers: { Host: "127.0.0.1" } })).status, missing).toBe(404);
    },
  );
});
