// Where a form post may send the browser back to: a path of our own site inside one area, never an open
// redirect. Pure, so the unit tests can try the tricky inputs.

/** A base no request can name: it only tells a path of ours from a URL that leaves the site. */
const LOCAL_ORIGIN = "http://return-to.invalid";

/**
 * The path and query `value` leads to once resolved as a browser would (`..`, `%2e%2e`, backslashes,
 * tabs and line breaks included), when that is `area` or a path under it; otherwise `fallback`. Checking
 * the raw text is not enough: `/admin/..//evil.example/x` starts with `/admin` yet resolves to
 * `//evil.example/x`, another site.
 */
export function resolveReturnTo(value: string, area: string, fallback: string = area): string {
  if (!value.startsWith("/")) return fallback;
  let url: URL;
  try {
    url = new URL(value, LOCAL_ORIGIN);
  } catch {
    return fallback;
  }
  if (url.origin !== LOCAL_ORIGIN) return fallback;
  if (url.pathname !== area && !url.pathname.startsWith(`${area}/`)) return fallback;
  return `${url.pathname}${url.search}`;
}
