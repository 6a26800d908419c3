// Small HTTP helpers for integration tests: what a browser would send, without following redirects.
import type { AppServer } from "./app-server";
import { BROWSER_USER_AGENT } from "./raw-http";

export { untilHeard } from "./app-server";
export { waitFor } from "./wait";

export interface Reply {
  status: number;
  headers: Headers;
  body: string;
}

type Target = Pick<AppServer, "url"> & { origin?: string };

/** The Origin a browser sends: the site's scheme (https behind a TLS proxy) with the host it asked for. */
function originOf(app: Target): string {
  return app.origin ?? new URL(app.url).origin;
}

/** A GET or a post as a browser sends it: with a browser's User-Agent unless `init` gives one (node's fetch says "node", a bot's). */
export async function request(app: Target, path: string, init: RequestInit = {}): Promise<Reply> {
  await (app as Partial<AppServer>).settle?.();
  const headers = new Headers(init.headers);
  if (!headers.has("user-agent")) headers.set("User-Agent", BROWSER_USER_AGENT);
  const response = await fetch(new URL(path, app.url), { redirect: "manual", ...init, headers });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

/** A form post as a browser without JavaScript sends it (same-origin Origin header). */
export function postForm(app: Target, path: string, fields: Record<string, string>): Promise<Reply> {
  return request(app, path, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: originOf(app) },
    body: new URLSearchParams(fields).toString(),
  });
}

/** A JSON call as the page's script makes it. */
export async function postJson(
  app: Target,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: Record<string, any>; headers: Headers }> {
  const reply = await request(app, path, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: originOf(app), ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: reply.status, json: JSON.parse(reply.body), headers: reply.headers };
}

export function setFeeCents(db: import("better-sqlite3").Database, cents: number): void {
  const now = new Date().toISOString();
  db.prepare(
    `INSERT INTO settings (key, value, created_at, updated_at) VALUES ('inquiry_fee', ?, ?, ?)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
  ).run((cents / 100).toFixed(2), now, now);
}

export const BUYER = {
  name: "Ada Buyer",
  email: "ada@buyer.example",
  phone: "+1 555 0100",
  offer: "$12,500",
  message: "I would like to buy this domain for my startup.",
};
