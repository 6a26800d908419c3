// What React Router sees of a Node request. @react-router/express makes the fetch Request from the
// express request (its Host header, req.protocol, its body stream); the page cache renders public pages
// with React Router's own handler. Both get the URL and headers as the server decided them here.
import type express from "express";
import { IncomingMessage, type IncomingHttpHeaders, type OutgoingHttpHeaders, type ServerResponse } from "node:http";
import { createRequestHandler, type ServerBuild } from "react-router";
import { refuse } from "./express.server";
import { isSameOriginNullOrigin } from "./null-origin.server";
import { routerContextFor, type RequestValues } from "./request-context.server";
import type { RenderedPage } from "./page-cache.server";

const SAFE_HOST = /^[a-z0-9.-]{1,253}(:\d{1,5})?$|^\[[0-9a-f:.]{2,45}\](:\d{1,5})?$/i;
/** Methods a fetch Request cannot carry. */
const FORBIDDEN_METHODS = new Set(["CONNECT", "TRACE", "TRACK"]);

/** Hosts already checked: a server hears few (its own names and the listed domains), and parsing a URL is dear. */
const checkedHosts = new Map<string, string>();
const CHECKED_HOSTS_MAX = 1_000;

/** The Host the app sees: a malformed one ("[::1", "a b", a bad port) counts as no host at all. */
function safeHost(headers: IncomingHttpHeaders): string {
  const host = headers.host ?? "";
  const checked = checkedHosts.get(host);
  if (checked !== undefined) return checked;
  if (checkedHosts.size >= CHECKED_HOSTS_MAX) checkedHosts.clear();
  const safe = isSafeHost(host) ? host : "localhost";
  checkedHosts.set(host, safe);
  return safe;
}

function isSafeHost(host: string): boolean {
  if (!SAFE_HOST.test(host)) return false;
  try {
    new URL(`http://${host}`);
    return true;
  } catch {
    return false;
  }
}

/**
 * Readies an express request for the adapter, or answers 400 when it cannot be one: only an
 * origin-form target ("/path?query") and a method fetch allows. The URL's scheme is the one the server
 * decided (trusted proxies, an https PUBLIC_URL), its host a plain host name, and a same-origin post
 * under `no-referrer` loses its `Origin: null` (null-origin.server.ts).
 */
export function reactRouterRequest(req: express.Request, res: ServerResponse, values: RequestValues): boolean {
  const target = req.url;
  if (!target.startsWith("/") || target.startsWith("//") || FORBIDDEN_METHODS.has(req.method)) {
    refuse(res, 400, "Bad request");
    return false;
  }
  try {
    new URL(target, "http://localhost");
  } catch {
    refuse(res, 400, "Bad request");
    return false;
  }
  req.headers.host = safeHost(req.headers);
  if (isSameOriginNullOrigin(req.method, req.headers)) delete req.headers.origin;
  Object.defineProperty(req, "protocol", { value: values.protocol });
  return true;
}

/**
 * The request again with a body read ahead (a chunked body counted against the limit, a sign-in the
 * sign-in guard read): the adapter reads the body from the request it is handed, and the original's
 * stream is spent. A Node request of its own, with express's request methods, the same headers and URL.
 */
export function withBody(req: express.Request, body: Buffer): express.Request {
  const replay = new IncomingMessage(req.socket);
  replay.method = req.method;
  replay.url = req.url;
  replay.headers = req.headers;
  replay.rawHeaders = req.rawHeaders;
  // Received whole: ending it must not count as an abort, which would close the connection.
  replay.complete = true;
  replay.push(body);
  replay.push(null);
  Object.setPrototypeOf(replay, Object.getPrototypeOf(req));
  const request = replay as express.Request;
  request.originalUrl = req.originalUrl;
  Object.defineProperty(request, "protocol", { value: req.protocol });
  return request;
}

/**
 * A public page GET rendered by React Router into memory, for the page cache (page-cache.server.ts):
 * its status, the route's headers (names in lower case) and its whole, uncompressed body.
 */
export function createPageRenderer(build: ServerBuild, mode: "development" | "production") {
  const handle = createRequestHandler(build, mode);
  return async (req: IncomingMessage, values: RequestValues): Promise<RenderedPage> => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === "string") headers.set(name, value);
    }
    const host = safeHost(req.headers);
    headers.set("host", host);
    const response = await handle(
      new Request(`${values.protocol}://${host}${req.url ?? "/"}`, { headers }),
      routerContextFor(values),
    );
    const pageHeaders: OutgoingHttpHeaders = {};
    for (const [name, value] of response.headers.entries()) if (name !== "set-cookie") pageHeaders[name] = value;
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) pageHeaders["set-cookie"] = cookies;
    return { status: response.status, headers: pageHeaders, body: Buffer.from(await response.arrayBuffer()) };
  };
}
