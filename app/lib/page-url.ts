// What the page cache keys a public page on: pure, so unit tests can read it.
import { MAX_SEARCH_LENGTH } from "./search";

/**
 * The URL a cacheable page is rendered for: the path and the parameters that page reads, normalized as
 * its loader reads them (home: `q` trimmed and cut, `page` a whole number above 1). Returns the URL and
 * whether it is a search.
 */
export function canonicalPageUrl(url: string): { url: string; search: boolean } {
  const queryAt = url.indexOf("?");
  if (queryAt === -1) return { url, search: false };
  const path = url.slice(0, queryAt);
  if (path !== "/") return { url: path, search: false };
  const params = new URLSearchParams(url.slice(queryAt + 1));
  const kept = new URLSearchParams();
  const q = (params.get("q") ?? "").trim().slice(0, MAX_SEARCH_LENGTH);
  if (q) kept.set("q", q);
  const page = Number(params.get("page") ?? "");
  if (Number.isInteger(page) && page > 1 && page <= 1_000_000) kept.set("page", String(page));
  const query = kept.toString();
  return { url: query ? `/?${query}` : "/", search: q !== "" };
}
