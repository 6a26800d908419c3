// Pages whose address is a key (the inquiry pages' signed links) send `Referrer-Policy: no-referrer`. Under
// that policy a browser posts their forms with `Origin: null`, which React Router's cross-site check
// refuses. Such a post is told apart from a cross-site one by Sec-Fetch-Site, which the browser sets and
// no page can: only "same-origin" with "null" has its Origin header left out of the fetch Request React
// Router sees (the check then lets it by). A browser that sends no Sec-Fetch-Site keeps `Origin: null` and
// is refused as before.
import type { IncomingHttpHeaders } from "node:http";

/** Whether this request's `Origin: null` is a same-origin post under `no-referrer`: the Origin is dropped. */
export function isSameOriginNullOrigin(method: string | undefined, headers: IncomingHttpHeaders): boolean {
  if (method === "GET" || method === "HEAD") return false;
  return headers.origin === "null" && headers["sec-fetch-site"] === "same-origin";
}
