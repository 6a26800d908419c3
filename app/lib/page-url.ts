// What the page cache keys a public page on: pure, so unit tests can read it.
import { asksForAnything, browseParams, readBrowseQuery } from "./browse";

// A name's or a category's page is linked in one spelling: lower case, no escapes, no trailing dot
// (domainPagePath; names are stored in ASCII). Its loader also answers the others (`/domain/VeLoRa`,
// `/domain/%76elora`, `/domain/velora.`), 2^length of them per name: kept in the small budget, they cannot
// push out the pages people read.
const NAMED_PAGE = /^\/(?:domain|contact|category)\//;
function otherSpelling(path: string): boolean {
  return NAMED_PAGE.test(path) && (/[A-Z%]/.test(path) || path.endsWith("."));
}

/**
 * The URL a cacheable page is rendered for: the path and the parameters that page reads, normalized as
 * its loader reads them (home: the search, filters and sort of browse.ts, `page` a whole number above 1).
 * Returns the URL and whether it is a search, a filtered list, a later page or another spelling of a
 * name's page (anyone can make those up by the million).
 */
export function canonicalPageUrl(url: string): { url: string; search: boolean } {
  const queryAt = url.indexOf("?");
  if (queryAt === -1) return { url, search: otherSpelling(url) };
  const path = url.slice(0, queryAt);
  if (otherSpelling(path)) return { url: path, search: true };
  if (path.startsWith("/category/")) {
    // A category page reads `page` only; a later page is kept in the small budget like a search.
    const page = Number(new URLSearchParams(url.slice(queryAt + 1)).get("page") ?? "");
    return Number.isInteger(page) && page > 1 && page <= 1_000_000
      ? { url: `${path}?page=${page}`, search: true }
      : { url: path, search: false };
  }
  if (path !== "/") return { url: path, search: false };
  const query = readBrowseQuery(new URLSearchParams(url.slice(queryAt + 1)));
  const kept = browseParams(query.filters, query.page, query.ignored).toString();
  // A later page of the plain list, like a category's, is kept in the small budget: a million page
  // numbers answer 200 (past the end, the last page), and would otherwise push out the pages people read.
  return { url: kept ? `/?${kept}` : "/", search: asksForAnything(query) || query.page > 1 };
}
