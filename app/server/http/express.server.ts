// The express stages before React Router (server/app.ts): body limits, the page actions' content-type
// guard, and the answer to an error no route handled.
import type { IncomingMessage, ServerResponse } from "node:http";
import { matchRoutes, type ServerBuild } from "react-router";
import type { RequestValues } from "./request-context.server";
import { isUploadPath } from "./upload-path.server";

type Next = (error?: unknown) => void;

const BODYLESS_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

function isMultipart(req: IncomingMessage): boolean {
  return /^multipart\/form-data\b/i.test(req.headers["content-type"] ?? "");
}

/** A short plain-text refusal. */
export function refuse(res: ServerResponse, status: number, message: string): void {
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

/** An error no route handled: a 4xx from a parser stays a 4xx; anything else is logged and answered 500. */
export function answerError(req: IncomingMessage, res: ServerResponse, values: RequestValues, error: unknown): void {
  const status = Number((error as { status?: unknown })?.status);
  if (status >= 400 && status < 500) return refuse(res, status, "Bad request");
  values.log.error({ method: req.method, error }, "unhandled error");
  refuse(res, 500, "Internal Server Error");
}
