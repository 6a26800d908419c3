// Every request that is not a cached page or the live fee (server.ts):
// static files, compression, body limits, a content-type guard for page actions, and React Router (the
// @react-router/express adapter's work, plus a pre-read body and a safe URL), on the raw Node request.
import { createReadableStreamFromReadable, writeReadableStreamToWritable } from "@react-router/node";
import { isSameOriginNullOrigin } from "./null-origin.server";
import express from "express";
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import path from "node:path";
import { Readable } from "node:stream";
import { createRequestHandler, matchRoutes, type ServerBuild } from "react-router";
import { env } from "../runtime/env.server";
import { compressStreamed } from "./compression.server";
import { routerContextFor, type RequestValues } from "./request-context.server";
import { isPrivatePath } from "./security.server";
import type { RenderedPage } from "./page-cache.server";
import { mayUpload } from "./uploads.server";
import { isUploadPath } from "./upload-path.server";

type Next = (error?: unknown) => void;

const BODYLESS_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

function isMultipart(req: IncomingMessage): boolean {
  return /^multipart\/form-data\b/i.test(req.headers["content-type"] ?? "");
}

export function refuse(res: ServerResponse, status: number, message: string): void {
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
  mayUpload: (req: IncomingMessage) => Promise<boolean>;
}

/** A body read ahead (a chunked body, counted against the limit), or undefined: the request streams it. */
type WithBody = (body?: Buffer) => void;

/**
 * Refuses a body over the limit with 413 before anything reads it: a declared Content-Length is checked
 * at once; a chunked body is read into memory up to the limit and refused as soon as it goes over.
 * Only a multipart post that `mayUpload` allows (asked before the body is read) has the upload limit.
 */
export function bodyLimit(limits: BodyLimits) {
  return (req: IncomingMessage, res: ServerResponse, next: WithBody, fail: Next): void => {
    if (BODYLESS_METHODS.has(req.method ?? "GET")) return next();
    if (!isMultipart(req)) return limitBody(req, res, next, limits.maxBodyBytes);
    limits
      .mayUpload(req)
      .then((allowed) => limitBody(req, res, next, allowed ? limits.maxUploadBytes : limits.maxBodyBytes), fail);
  };
}

function limitBody(req: IncomingMessage, res: ServerResponse, next: WithBody, limit: number): void {
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
    next(Buffer.concat(chunks));
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
    nodes.set(route.id, {
      id: route.id,
      path: route.path,
      index: route.index,
      caseSensitive: route.caseSensitive,
      children: [],
    });
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
export function pageActionContentType(build: ServerBuild) {
  const tree = routeTree(build);
  /** Whether the request may go on; a refused one is answered 415. */
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if (BODYLESS_METHODS.has(req.method ?? "GET")) return true;
    const url = req.url ?? "/";
    const route = matchLeafRoute(build, tree, url);
    if (!route?.module.default || !route.module.action) return true;
    const type = req.headers["content-type"] ?? "";
    if (FORM_TYPE.test(type)) return true;
    // Multipart only where a file is uploaded; that action reads it (once) and answers a broken body with 400.
    if (MULTIPART_WITH_BOUNDARY.test(type) && isUploadPath(url)) return true;
    refuse(
      res,
      415,
      "Forms only: send application/x-www-form-urlencoded (multipart/form-data only to the portfolio import)",
    );
    return false;
  };
}

const SAFE_HOST = /^[a-z0-9.-]{1,253}(:\d{1,5})?$|^\[[0-9a-f:.]{2,45}\](:\d{1,5})?$/i;

/**
 * The fetch Request React Router sees for a node request, or null when its target or method cannot be
 * one. `protocol` is the scheme as the server decided it (trust proxy). Shared by the express route and
 * the direct page path (direct-page.server.ts). Its signal aborts when the client goes away; with
 * `abortable: false` it never does (a public page's GET: see direct-page.server.ts).
 */
export function fetchRequestFrom(
  req: IncomingMessage,
  res: ServerResponse,
  protocol: string,
  { preReadBody, abortable = true }: { preReadBody?: Buffer; abortable?: boolean } = {},
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
  const dropOrigin = isSameOriginNullOrigin(req.method, req.headers);
  for (const [key, values] of Object.entries(req.headers)) {
    if (values === undefined || key === "host" || (dropOrigin && key === "origin")) continue;
    try {
      if (Array.isArray(values)) for (const value of values) headers.append(key, value);
      else headers.set(key, values);
    } catch {
      // a header value fetch cannot carry: drop it
    }
  }
  headers.set("host", host);
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers };
  if (abortable) {
    let controller: AbortController | null = new AbortController();
    res.on("finish", () => (controller = null));
    res.on("close", () => controller?.abort());
    init.signal = controller.signal;
  }
  if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = createReadableStreamFromReadable(preReadBody ? Readable.from([preReadBody]) : req);
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
    res.setHeader("Set-Cookie", [
      ...(earlier === undefined ? [] : Array.isArray(earlier) ? earlier : [String(earlier)]),
      ...cookies,
    ]);
  }
  // Admin and payment pages: whatever a route said, no cache keeps them.
  if (isPrivatePath(path)) res.setHeader("Cache-Control", "no-store");
}

/** An error no route handled: a 4xx from a parser stays a 4xx; anything else is logged and answered 500. */
export function answerError(req: IncomingMessage, res: ServerResponse, values: RequestValues, error: unknown): void {
  const status = Number((error as { status?: unknown })?.status);
  if (status >= 400 && status < 500) return refusePlain(res, status, "Bad request");
  values.log.error({ method: req.method, error }, "unhandled error");
  refusePlain(res, 500, "Internal Server Error");
}

/**
 * A public page GET rendered by React Router into memory, for the page cache (page-cache.server.ts):
 * its status, the route's headers (names in lower case) and its whole, uncompressed body.
 */
export function createPageRenderer(options: { build: ServerBuild; mode: "development" | "production" }) {
  const handle = createRequestHandler(options.build, options.mode);
  return async (req: IncomingMessage, res: ServerResponse, values: RequestValues): Promise<RenderedPage> => {
    const request = fetchRequestFrom(req, res, values.protocol);
    if (!request)
      return {
        status: 400,
        headers: { "content-type": "text/plain; charset=utf-8" },
        body: Buffer.from("Bad request\n"),
      };
    const response = await handle(request, routerContextFor(values));
    const headers: OutgoingHttpHeaders = {};
    for (const [name, value] of response.headers.entries()) if (name !== "set-cookie") headers[name] = value;
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) headers["set-cookie"] = cookies;
    if (isPrivatePath(req.url ?? "/")) headers["cache-control"] = "no-store";
    return { status: response.status, headers, body: Buffer.from(await response.arrayBuffer()) };
  };
}

export interface RouteHandlerOptions {
  build: ServerBuild;
  mode: "development" | "production";
  /** build/client, served before the routes; null in development (Vite serves the client files). */
  staticFiles: string | null;
}

/**
 * Static files (production), then compression, body limits, the page actions' content-type guard and
 * React Router, with the request's values as its context.
 */
export function createRouteHandler(options: RouteHandlerOptions) {
  const handle = createRequestHandler(options.build, options.mode);
  const limitBody = bodyLimit({ maxBodyBytes: env.MAX_BODY_BYTES, maxUploadBytes: env.MAX_UPLOAD_BYTES, mayUpload });
  const acceptsBody = pageActionContentType(options.build);
  const assets = options.staticFiles
    ? express.static(path.join(options.staticFiles, "assets"), { immutable: true, maxAge: "1y", index: false })
    : null;
  const files = options.staticFiles ? express.static(options.staticFiles, { maxAge: "1h", index: false }) : null;
  const staticFiles = (req: IncomingMessage, res: ServerResponse, next: Next) => {
    if (!files || !assets) return next();
    const url = req.url ?? "/";
    if (url.startsWith("/assets/")) {
      // Served from build/client/assets as if mounted at /assets (express.static reads req.url).
      req.url = url.slice("/assets".length);
      return assets(req as never, res as never, (error?: unknown) => {
        req.url = url;
        if (error) return next(error);
        files(req as never, res as never, next);
      });
    }
    files(req as never, res as never, next);
  };

  async function route(req: IncomingMessage, res: ServerResponse, values: RequestValues, body?: Buffer) {
    const request = fetchRequestFrom(req, res, values.protocol, { preReadBody: body });
    if (!request) return refuse(res, 400, "Bad request");
    const response = await handle(request, routerContextFor(values));
    if (res.destroyed || res.writableEnded) {
      await response.body?.cancel();
      return;
    }
    res.statusMessage = response.statusText;
    res.statusCode = response.status;
    copyResponseHeaders(response, res, req.url ?? "/");
    if (/text\/event-stream/i.test(response.headers.get("Content-Type") ?? "")) res.flushHeaders();
    if (!response.body) return void res.end();
    try {
      await writeReadableStreamToWritable(response.body, res);
    } catch (error) {
      if (res.destroyed || res.writableEnded) return;
      throw error;
    }
  }

  return (req: IncomingMessage, res: ServerResponse, values: RequestValues): void => {
    const fail = (error: unknown) => answerError(req, res, values, error);
    compressStreamed(req, res, () =>
      staticFiles(req, res, (error) => {
        if (error) return fail(error);
        // A sign-in body the sign-in guard read already, within its own limit.
        if (values.signInBody) {
          if (acceptsBody(req, res)) route(req, res, values, values.signInBody).catch(fail);
          return;
        }
        limitBody(
          req,
          res,
          (body) => {
            if (acceptsBody(req, res)) route(req, res, values, body).catch(fail);
          },
          fail,
        );
      }),
    );
  };
}
