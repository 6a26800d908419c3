import { domainPagePath } from "../../lib/domain-name";
import { db } from "../db/database.server";
import { liveDomainTotals } from "./domains.server";
import { categoryPath } from "../../lib/categories";
import { categoryCounts } from "./categories.server";

/** The sitemap protocol's limit per file; a larger portfolio gets a sitemap index. */
export const URLS_PER_SITEMAP = 50_000;
const BATCH_SIZE = 1_000;
export const SITEMAP_HEADERS = {
  "Content-Type": "application/xml; charset=utf-8",
  "Cache-Control": "public, max-age=600",
};
const XML_HEADER = '<?xml version="1.0" encoding="UTF-8"?>\n';
const SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9";

type SitemapRow = { id: number; domain_name: string; updated_at: string };

/**
 * Live domains in id order, from the `skip`-th on, at most `limit`. Reads in short keyset batches, so
 * no query stays open between reads and other requests can use the database meanwhile.
 */
export async function* liveDomainsForSitemap(skip: number, limit: number): AsyncGenerator<SitemapRow> {
  const live = db.selectFrom("domains").where("deleted_at", "is", null);
  const start = await live.select("id").orderBy("id").limit(1).offset(skip).executeTakeFirst();
  if (!start) return;
  let afterId = start.id - 1;
  let left = limit;
  while (left > 0) {
    const size = Math.min(BATCH_SIZE, left);
    const rows = await live
      .select(["id", "domain_name", "updated_at"])
      .where("id", ">", afterId)
      .orderBy("id")
      .limit(size)
      .execute();
    for (const row of rows) yield row;
    if (rows.length < size) return;
    left -= rows.length;
    afterId = rows[rows.length - 1]!.id;
  }
}

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);
}

function urlEntry(loc: string, lastmod?: string): string {
  return `<url><loc>${escapeXml(loc)}</loc>${lastmod ? `<lastmod>${lastmod.slice(0, 10)}</lastmod>` : ""}</url>\n`;
}

/** How many sitemap files the portfolio needs (the home page and the category pages open the first). */
export async function sitemapPartCount(): Promise<number> {
  const leading = 1 + (await categoryCounts()).length;
  return Math.max(1, Math.ceil(((await liveDomainTotals()).count + leading) / URLS_PER_SITEMAP));
}

/** A streamed <urlset> for part `part` (1-based): the home page and the category pages first, then domain pages in id order. */
export function sitemapPartStream(origin: string, part: number): ReadableStream<Uint8Array> {
  return textStream(async function* () {
    const categories = await categoryCounts();
    const leading = 1 + categories.length;
    const skip = part === 1 ? 0 : (part - 1) * URLS_PER_SITEMAP - leading;
    const limit = part === 1 ? URLS_PER_SITEMAP - leading : URLS_PER_SITEMAP;
    yield `${XML_HEADER}<urlset xmlns="${SITEMAP_NS}">\n`;
    if (part === 1) {
      yield urlEntry(`${origin}/`);
      for (const category of categories) yield urlEntry(`${origin}${categoryPath(category.slug)}`);
    }
    for await (const row of liveDomainsForSitemap(skip, limit))
      yield urlEntry(`${origin}${domainPagePath(row.domain_name)}`, row.updated_at);
    yield "</urlset>\n";
  });
}

/** A <sitemapindex> naming every part, for a portfolio beyond one file. */
export function sitemapIndex(origin: string, parts: number): string {
  let body = `${XML_HEADER}<sitemapindex xmlns="${SITEMAP_NS}">\n`;
  for (let part = 1; part <= parts; part++)
    body += `<sitemap><loc>${escapeXml(`${origin}/sitemaps/${part}.xml`)}</loc></sitemap>\n`;
  return `${body}</sitemapindex>\n`;
}

/** Pulls text from a generator a few hundred entries at a time, as the client reads. */
function textStream(chunks: () => AsyncGenerator<string>): ReadableStream<Uint8Array> {
  const source = chunks();
  const encoder = new TextEncoder();
  return new ReadableStream({
    async pull(controller) {
      let text = "";
      for (let i = 0; i < 500; i++) {
        const next = await source.next();
        if (next.done) {
          if (text) controller.enqueue(encoder.encode(text));
          controller.close();
          return;
        }
        text += next.value;
      }
      controller.enqueue(encoder.encode(text));
    },
    async cancel() {
      await source.return(undefined);
    },
  });
}

export function robotsTxt(origin: string): string {
  return [
    "User-agent: *",
    "Allow: /",
    "Disallow: /admin",
    "Disallow: /payment",
    "Disallow: /events/",
    "",
    `Sitemap: ${origin}/sitemap.xml`,
    "",
  ].join("\n");
}
