import type { AppServer } from "../support/app-server";
import { BROWSER_USER_AGENT } from "../support/raw-http";

export { visibleText, withoutSpans } from "../support/visible-text";

export interface HttpResult {
  status: number;
  headers: Headers;
  body: string;
  location: string | null;
}

/** One request to the server as a browser without JavaScript would make it (no redirects followed). */
export async function http(
  app: AppServer,
  path: string,
  options: {
    method?: string;
    cookie?: string;
    form?: Record<string, string>;
    body?: BodyInit;
    headers?: Record<string, string>;
  } = {},
): Promise<HttpResult> {
  await app.settle();
  // node's fetch says "node": a script's User-Agent, which the page cache treats as a crawler's.
  const headers: Record<string, string> = { "User-Agent": BROWSER_USER_AGENT, ...options.headers };
  if (options.cookie) headers.Cookie = options.cookie;
  let body = options.body;
  if (options.form) {
    headers["Content-Type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(options.form);
  }
  const response = await fetch(new URL(path, app.url), {
    method: options.method ?? (body ? "POST" : "GET"),
    redirect: "manual",
    headers,
    body,
  });
  return {
    status: response.status,
    headers: response.headers,
    body: await response.text(),
    location: response.headers.get("location"),
  };
}

/** Uploads `text` as the portfolio CSV of the admin whose session `cookie` is, as the Import / Export form does. */
export function uploadPortfolioCsv(app: AppServer, cookie: string, text: string | Uint8Array, name = "portfolio.csv") {
  const body = new FormData();
  body.set("file", new Blob([text as BlobPart], { type: "text/csv" }), name);
  return http(app, "/admin/portfolio", { cookie, body });
}
