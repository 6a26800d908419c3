// Express pieces used by server.ts: body limits, a content-type guard for page actions, and the
// React Router request handler (the @react-router/express adapter, plus a pre-read body and a safe URL).
import { createReadableStreamFromReadable, writeReadableStreamToWritable } from "@react-router/node";
import type { NextFunction, Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from "express";
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { createRequestHandler, matchRoutes, type AppLoadContext, type ServerBuild } from "react-router";
import { publicProtocolOf } from "./client-address.server";
import { isPrivatePath } from "./security.server";
import { isUploadPath } from "./upload-path.server";

type WithBody = ExpressRequest & { preReadBody?: Buffer };

const BODYLESS_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

function isMultipart(req: ExpressRequest): boolean {
  return /^multipart\/form-data\b/i.test(req.headers["content-type"] ?? "");
}

export function refuse(res: ExpressResponse, status: number, message: string): void {
  refusePlain(res, status, message);
}

/** A short plain-text refusal on any node response (express's or the direct page path's). */
export function refusePlain(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.statusCode = status;
  res.setHeader("Content-Type", "text/plain; charset=utf-8");
  res.setHeader("Cache-Control", "no-store");
  res.end(`${message}\n`);
}

const LINGER_MS = 3_000;

/**
 * A "lingering close" for a refused upload: the answer goes out at once, and then the socket keeps
 * reading (and throwing away) what the client is still sending for up to LINGER_MS before it is
 * destroyed. Closing a socket with unread data makes the kernel reset the connection, and a reset
 * discards the answer on the client's side if it has not read it yet: a client that writes its
 * whole body before reading would never see the 413.
 */
export function lingerOnClose(req: IncomingMessage): void {
  const socket = req.socket;
  socket.destroySoon = function lingeringDestroySoon(this: typeof socket) {
    if (this.writable) this.end();
    this.on("data", () => {});
    this.resume();
    setTimeout(() => this.destroy(), LINGER_MS).unref();
    this.once("end", () => this.destroy());
  };
  req.resume();
}

export interface BodyLimits {
  maxBodyBytes: number;
  maxUploadBytes: number;
  /** Whether this request may send up to maxUploadBytes (the import, from a signed-in admin). */
  mayUpload: (req: ExpressRequest) => Promise<boolean>;
}

/**
 * Refuses a body over the limit with 413 before anything reads it: a declared Content-Length is checked
 * at once; a chunked body is read into memory up to the limit and refused as soon as it goes over.
 * Only a multipart post that `mayUpload` allows (asked before the body is read) has the upload limit.
 */
export function bodyLimit(limits: BodyLimits): RequestHandler {
  return (req, res, next) => {
    if (BODYLESS_METHODS.has(req.method)) return next();
    if (!isMultipart(req)) return limitBody(req, res, next, limits.maxBodyBytes);
    limits.mayUpload(req).then(
      (allowed) => limitBody(req, res, next, allowed ? limits.maxUploadBytes : limits.maxBodyBytes),
      next,
    );
  };
}

function limitBody(req: ExpressRequest, res: ExpressResponse, next: NextFunction, limit: number): void {
  // Read already, within its limit (the sign-in guard, sign-in-guard.server.ts).
  if ((req as WithBody).preReadBody) return next();
  const declared = req.headers["content-length"];
  const tooLarge = () => {
    res.setHeader("Connection", "close");
    lingerOnClose(req);
    refuse(res, 413, `Request body too large (limit ${limit} bytes)`);
    req.unpipe();
  };
  if (declared !== undefined) {
    if (!/^\d{1,16}$/.test(declared)) return refuse(res, 400, "Bad Content-Length");
    if (Number(declared) > limit) return tooLarge();
    return next();
  }
  if (!req.headers["transfer-encoding"]) return next();
  const chunks: Buffer[] = [];
  let size = 0;
  let refused = false;
  req.on("data", (chunk: Buffer) => {
    if (refused) return;
    size += chunk.length;
    if (size > limit) {
      refused = true;
      chunks.length = 0;
      tooLarge();
      return;
    }
    chunks.push(chunk);
  });
  req.on("end", () => {
    if (refused) return;
    (req as WithBody).preReadBody = Buffer.concat(chunks);
    next();
  });
  req.on("error", () => {
    refused = true;
  });
}

interface RouteNode {
  id: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  children: RouteNode[];
}

export function routeTree(build: ServerBuild): RouteNode[] {
  const nodes = new Map<string, RouteNode>();
  for (const route of Object.values(build.routes)) {
    if (!route) continue;
    nodes.set(route.id, { id: route.id, path: route.path, index: route.index, caseSensitive: route.caseSensitive, children: [] });
  }
  const roots: RouteNode[] = [];
  for (const route of Object.values(build.routes)) {
    if (!route) continue;
    const node = nodes.get(route.id)!;
    const parent = route.parentId ? nodes.get(route.parentId) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}

/** The route a URL path reaches, counting React Router's "/x.data" data requests as "/x". */
export function matchLeafRoute(build: ServerBuild, tree: RouteNode[], urlPath: string) {
  let path = urlPath.split("?")[0] ?? "/";
  if (path === "/_root.data") path = "/";
  else if (path.endsWith(".data")) path = path.slice(0, -".data".length);
  const matches = matchRoutes(tree as never, path) as Array<{ route: RouteNode }> | null;
  const leaf = matches?.[matches.length - 1]?.route;
  return leaf ? build.routes[leaf.id] : undefined;
}

const FORM_TYPE = /^application\/x-www-form-urlencoded\b/i;
const MULTIPART_WITH_BOUNDARY = /^multipart\/form-data\s*;.*boundary=/i;

/**
 * Page actions read forms. Any other body (JSON, XML, none at all) gets 415 here instead of a parse
 * error (500) inside the action. Resource routes (webhooks, JSON endpoints) check their own bodies.
 */
export function pageActionContentType(build: ServerBuild): RequestHandler {
  const tree = routeTree(build);
  return (req, res, next) => {
    if (BODYLESS_METHODS.has(req.method)) return next();
    const route = matchLeafRoute(build, tree, req.path);
    if (!route?.module.default || !route.module.action) return next();
    const type = req.headers["content-type"] ?? "";
    if (FORM_TYPE.test(type)) return next();
    // Multipart only where a file is uploaded; that action reads it (once) and answers a broken body with 400.
    if (MULTIPART_WITH_BOUNDARY.test(type) && isUploadPath(req.originalUrl)) return next();
    return refuse(res, 415, "Forms only: send application/x-www-form-urlencoded (multipart/form-data only to the portfolio import)");
  };
}

const SAFE_HOST = /^[a-z0-9.-]{1,253}(:\d{1,5})?$|^\[[0-9a-f:.]{2,45}\](:\d{1,5})?$/i;

/**
 * The fetch Request React Router sees for a node request, or null when its target or method cannot be
 * one. `protocol` is the scheme as the server decided it (trust proxy). Shared by the express route and
 * the direct page path (direct-page.server.ts).
 */
export function fetchRequestFrom(
  req: IncomingMessage & { preReadBody?: Buffer },
  res: ServerResponse,
  protocol: string,
): Request | null {
  const target = req.url ?? "";
  // Only an origin-form target ("/path?query") is served; a Host header that is not a plain host name
  // cannot steer the URL the app sees.
  if (!target.startsWith("/") || target.startsWith("//")) return null;
  // A malformed Host ("[::1", a bad port) is treated as no host at all: the app sees "localhost".
  const hostHeader = req.headers.host ?? "";
  let host = SAFE_HOST.test(hostHeader) ? hostHeader : "localhost";
  let url: URL;
  try {
    url = new URL(`${protocol}://${host}${target}`);
  } catch {
    host = "localhost";
    try {
      url = new URL(`${protocol}://${host}${target}`);
    } catch {
      return null;
    }
  }
  const headers = new Headers();
  for (const [key, values] of Object.entries(req.headers)) {
    if (values === undefined || key === "host") continue;
    try {
      if (Array.isArray(values)) for (const value of values) headers.append(key, value);
      else headers.set(key, values);
    } catch {
      // a header value fetch cannot carry: drop it
    }
  }
  headers.set("host", host);
  let controller: AbortController | null = new AbortController();
  res.on("finish", () => (controller = null));
  res.on("close", () => controller?.abort());
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers, signal: controller.signal };
  if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = createReadableStreamFromReadable(req.preReadBody ? Readable.from([req.preReadBody]) : req);
    init.duplex = "half";
  }
  try {
    return new Request(url.href, init);
  } catch {
    // e.g. a method fetch forbids (CONNECT, TRACE)
    return null;
  }
}

/** A route's response headers onto the node response: a route's own header replaces a server-wide default. */
export function copyResponseHeaders(response: Response, res: ServerResponse, path: string): void {
  for (const [key, value] of response.headers.entries()) {
    if (key === "set-cookie") continue;
    res.setHeader(key, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) {
    const earlier = res.getHeader("set-cookie");
    res.setHeader("Set-Cookie", [...(earlier === undefined ? [] : Array.isArray(earlier) ? earlier : [String(earlier)]), ...cookies]);
  }
  // Admin and payment pages: whatever a route said, no cache keeps them.
  if (isPrivatePath(path)) res.setHeader("Cache-Control", "no-store");
}

export function reactRouterHandler(options: {
  build: ServerBuild;
  getLoadContext: (req: ExpressRequest, res: ExpressResponse) => AppLoadContext;
}): RequestHandler {
  const handle = createRequestHandler(options.build, "production");
  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    try {
      const request = fetchRequestFrom(req as WithBody, res, publicProtocolOf(req));
      if (!request) return refuse(res, 400, "Bad request");
      const response = await handle(request, options.getLoadContext(req, res));
      if (res.destroyed || res.writableEnded) {
        await response.body?.cancel();
        return;
      }
      res.statusMessage = response.statusText;
      res.status(response.status);
      copyResponseHeaders(response, res, req.path);
      if (/text\/event-stream/i.test(response.headers.get("Content-Type") ?? "")) res.flushHeaders();
      if (!response.body) return void res.end();
      try {
        await writeReadableStreamToWritable(response.body, res);
      } catch (error) {
        if (res.destroyed || res.writableEnded) return;
        throw error;
      }
    } catch (error) {
      next(error);
    }
  };
}
