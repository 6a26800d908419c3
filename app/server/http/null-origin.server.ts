// Pages whose address is a key (the inquiry pages' signed links) send `Referrer-Policy: no-referrer`. Under
// that policy a browser posts their forms with `Origin: null`, which React Router's cross-site check
// refuses. Such a post is told apart from a cross-site one by Sec-Fetch-Site, which the browser sets and
// no page can: only "same-origin" with "null" has its Origin header dropped (the check then lets it by).
// A browser that sends no Sec-Fetch-Site keeps `Origin: null` and is refused as before.
import type { IncomingHttpHeaders } from "node:http";

export function acceptSameOriginNullOrigin(
  method: string | undefined,
  headers: IncomingHttpHeaders,
): void {
  if (method === "GET" || method === "HEAD") return;
  if (headers.origin === "null" && headers["sec-fetch-site"] === "same-origin")
    delete headers.origin;
}
