import { createHash } from "node:crypto";
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { RouterContextProvider } from "react-router";
import { canonicalPageUrl } from "../../lib/page-url";
import { currentContentVersion, knownContentVersion } from "../db/content-version.server";
import { acceptsGzip, chooseEncoding, compressPage, MIN_COMPRESS_BYTES, type Encoding } from "./compression.server";
import { env } from "../runtime/env.server";
import { log } from "../runtime/log.server";
import { isKnownHost } from "../catalog/hosts.server";
import { isCrawler } from "./crawlers.server";
import { requestValues, type CachedRequest, type HitEffect, type RequestValues } from "./request-context.server";

/*
 * An in-memory cache of rendered public pages (/, /domain/*, /contact/*, /category/*), consulted before anything
 * else in server.ts. Correctness rests on one rule: a page is served from memory only while the
 * content version it was rendered at is still current. Triggers (migrations 0030, 0190) bump that version
 * on every write of what public pages show, from any process; the version is kept in memory
 * (db/content-version.server.ts): this process's writes show on the very next request, other processes'
 * within a poll or a notification (under a second at worst). Only anonymous GETs are cached (no Cookie, no Authorization), keyed by
 * what a page reads: Host, the scheme a trusted proxy reports, the path and the query parameters the
 * page knows (others are dropped before rendering, so `?utm_source=...` is a hit). Only 200 and 404
 * responses that set no cookie are kept. Search results, 404s and pages for Hosts nobody configured,
 * which anyone can make up by the million, share a small part of the budget of their own, so they
 * cannot push real pages out.
 * The stored headers (Content-Security-Policy included) go out with the stored body, so a nonce in the
 * page always matches its header. Compressed variants are made once per entry, not once per request.
 */

type Next = (error?: unknown) => void;

/** A page rendered into memory: what the page cache keeps and sends. */
export interface RenderedPage {
  status: number;
  /** Every response header of the page, security headers included, names in lower case. */
  headers: OutgoingHttpHeaders;
  body: Buffer;
}
/** Renders a public page GET into memory (server/app.ts: the security headers and React Router). */
export type RenderPage = (req: IncomingMessage, values: RequestValues) => Promise<RenderedPage>;
// Loose shapes of ServerResponse methods, to call the saved originals with `call`.
type WriteHead = (this: ServerResponse, status: number, headers?: OutgoingHttpHeaders) => ServerResponse;
type End = (this: ServerResponse, chunk?: unknown) => ServerResponse;

interface Entry {
  key: string;
  version: number;
  status: number;
  /** Null on a page sent once and not kept: its nonce makes every render's body differ, so none could match. */
  etag: string | null;
  identity: Buffer;
  variants: Partial<Record<Exclude<Encoding, "identity">, Buffer>>;
  /** Response headers per encoding, built once: Content-Length and Content-Encoding included. */
  headers: Partial<Record<Encoding, OutgoingHttpHeaders>>;
  notModifiedHeaders: OutgoingHttpHeaders;
  storedHeaders: OutgoingHttpHeaders;
  hitEffects: HitEffect[];
  bytes: number;
  /** A search result or a 404: kept in the small budget. */
  minor: boolean;
}

const CACHEABLE_PATH = /^\/(?:(?:domain|contact|category)\/[^/]+)?$/;
/** Per-response headers that are recomputed, or meaningless, when a stored page is sent again. */
const UNSTORED_HEADERS = new Set([
  "content-length",
  "content-encoding",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "date",
  "etag",
  "vary",
  "x-cache",
  "x-request-id",
]);
/**
 * For work a page does on every request besides rendering (counting a view): call it from the loader
 * with the loader's context; when the page is cached, `effect` runs on each later hit as well.
 */
export function repeatOnCacheHit(context: Readonly<RouterContextProvider>, effect: HitEffect): void {
  requestValues(context).pageCacheCapture?.hitEffects.push(effect);
}

/** Keys of pages crawlers asked for and were not kept, remembered to keep the page the next time. */
const CRAWLER_KEYS = 10_000;

/** Whether a key was seen since it was last reported, among the last `max` or so (then it is forgotten). */
function recentKeys(max: number) {
  const seen = new Set<string>();
  return {
    seenAgain(key: string): boolean {
      if (seen.delete(key)) return true;
      if (seen.size >= max) seen.clear();
      seen.add(key);
      return false;
    },
  };
}

/** Search results and 404s get this share of the cache's memory. */
const MINOR_SHARE = 1 / 8;
/** A larger page is sent, not kept. */
const MAX_PAGE_BYTES = 1024 * 1024;

export interface PageCacheOptions {
  /**
   * How a public page is made. Without it (development) every request goes on to the routes; with it a
   * public page is rendered into memory and compressed once, whether it is kept or not.
   */
  render?: RenderPage;
  /** Whether rendered pages are kept (PAGE_CACHE); `false` renders every request. */
  keep?: boolean;
  /** A render that failed: answered as any unhandled error. */
  onError?: (req: IncomingMessage, res: ServerResponse, values: RequestValues, error: unknown) => void;
  /** Memory budget for stored pages (all encodings); the least recently used go first. */
  maxBytes?: number;
}

export type PageCacheMiddleware = ((
  req: IncomingMessage,
  res: ServerResponse,
  values: RequestValues,
  next: Next,
) => void) & {
  clear: () => void;
  stats: () => {
    entries: number;
    bytes: number;
    minorEntries: number;
    minorBytes: number;
    hits: number;
    misses: number;
  };
};

export function createPageCache(options: PageCacheOptions = {}): PageCacheMiddleware {
  const render = options.render;
  const onError = options.onError ?? ((_req, res) => res.destroy());
  const keep = options.keep ?? env.PAGE_CACHE === "true";
  const maxBytes = options.maxBytes ?? env.PAGE_CACHE_MAX_MB * 1024 * 1024;
  const maxMinorBytes = Math.floor(maxBytes * MINOR_SHARE);
  // Two least-recently-used lists: pages, and the search results and 404s (the "minor" ones).
  const entries = new Map<string, Entry>();
  const minorEntries = new Map<string, Entry>();
  let bytes = 0;
  let minorBytes = 0;
  let seenVersion = -1;
  let hits = 0;
  let misses = 0;
  const crawlerPages = recentKeys(CRAWLER_KEYS);

  function clear() {
    entries.clear();
    minorEntries.clear();
    bytes = 0;
    minorBytes = 0;
  }

  function lookup(key: string): Entry | undefined {
    return entries.get(key) ?? minorEntries.get(key);
  }

  function touch(entry: Entry) {
    const list = entry.minor ? minorEntries : entries;
    list.delete(entry.key);
    list.set(entry.key, entry);
  }

  function remember(entry: Entry) {
    const previous = lookup(entry.key);
    if (previous) forget(previous);
    const list = entry.minor ? minorEntries : entries;
    list.set(entry.key, entry);
    addBytes(entry, entry.bytes);
    const limit = entry.minor ? maxMinorBytes : maxBytes - maxMinorBytes;
    for (const oldest of list.values()) {
      if ((entry.minor ? minorBytes : bytes - minorBytes) <= limit) break;
      forget(oldest);
    }
  }

  function forget(entry: Entry) {
    (entry.minor ? minorEntries : entries).delete(entry.key);
    addBytes(entry, -entry.bytes);
  }

  function addBytes(entry: Entry, delta: number) {
    bytes += delta;
    if (entry.minor) minorBytes += delta;
  }

  // A first render (a miss) gets gzip at level 1 instead of br (compression.server.ts).
  function addVariant(entry: Entry, encoding: Exclude<Encoding, "identity">, firstRender = false): Buffer {
    const body = compressPage(entry.identity, encoding, firstRender);
    entry.variants[encoding] = body;
    entry.bytes += body.length;
    if (lookup(entry.key) === entry) addBytes(entry, body.length);
    return body;
  }

  /**
   * A hit's headers go to writeHead as one object with its X-Request-Id (server.ts sets none before the
   * page cache): Node then writes them as they are instead of setting them one by one.
   */
  function send(
    req: IncomingMessage,
    res: ServerResponse,
    values: RequestValues,
    entry: Entry,
    /** PASS: a page rendered and not kept (no X-Cache). */
    cacheState: "HIT" | "MISS" | "PASS",
    writeHead: WriteHead,
    end: End,
  ) {
    if (cacheState === "HIT") runHitEffects(req, entry);
    const ifNoneMatch = req.headers["if-none-match"];
    if (ifNoneMatch !== undefined && entry.etag && etagMatches(ifNoneMatch, entry.etag)) {
      const notModified = entry.notModifiedHeaders;
      writeHead.call(
        res,
        304,
        cacheState === "HIT" ? { ...notModified, "x-request-id": values.requestId } : notModified,
      );
      end.call(res);
      return;
    }
    let encoding =
      entry.identity.length < MIN_COMPRESS_BYTES ? "identity" : chooseEncoding(req.headers["accept-encoding"]);
    const firstRender = cacheState !== "HIT";
    if (firstRender && encoding === "br" && acceptsGzip(req.headers["accept-encoding"])) encoding = "gzip";
    const body =
      encoding === "identity" ? entry.identity : (entry.variants[encoding] ?? addVariant(entry, encoding, firstRender));
    if (encoding !== "identity" && body.length >= entry.identity.length) encoding = "identity";
    let headers = entry.headers[encoding];
    if (!headers) {
      headers = {
        ...entry.storedHeaders,
        "x-cache": "HIT",
        "content-length": String(encoding === "identity" ? entry.identity.length : body.length),
      };
      if (encoding !== "identity") headers["content-encoding"] = encoding;
      entry.headers[encoding] = headers;
    }
    const { "x-cache": _hit, ...passed } = headers;
    writeHead.call(
      res,
      entry.status,
      cacheState === "HIT"
        ? { ...headers, "x-request-id": values.requestId }
        : cacheState === "MISS"
          ? { ...headers, "x-cache": "MISS", "x-request-id": values.requestId }
          : { ...passed, "x-request-id": values.requestId },
    );
    end.call(res, encoding === "identity" ? entry.identity : body);
  }

  const middleware = ((req, res, values, next) => {
    if (!render || req.method !== "GET") return next();
    const url = req.url ?? "";
    const queryAt = url.indexOf("?");
    if (!CACHEABLE_PATH.test(queryAt === -1 ? url : url.slice(0, queryAt))) return next();
    const headers = req.headers;
    if (headers.cookie !== undefined || headers.authorization !== undefined || !headers.host) return next();

    if (!keep) return renderAndSend(req, res, values, null);
    // The version is kept in memory (content-version.server.ts): a hit asks the database nothing.
    const known = knownContentVersion();
    if (known !== undefined) return answer(req, res, values, known);
    currentContentVersion().then(
      (version) => answer(req, res, values, version),
      // The database cannot say (busy, closing): render afresh, and keep nothing.
      () => renderAndSend(req, res, values, null),
    );
  }) as PageCacheMiddleware;

  function answer(req: IncomingMessage, res: ServerResponse, values: RequestValues, version: number) {
    const headers = req.headers as IncomingMessage["headers"] & { host: string };
    const url = req.url ?? "";
    if (version > seenVersion) {
      // Everything stored is stale now: free it at once rather than entry by entry.
      clear();
      seenVersion = version;
    }
    // Everything a render depends on: the host (landers, canonical links), the scheme the browser used
    // (server.ts works it out through trusted proxies; HSTS is stored with the page), and the path with
    // the parameters the page reads.
    const canonical = canonicalPageUrl(url);
    const key = `${headers.host.toLowerCase()} ${values.protocol} ${canonical.url}`;
    const cached = lookup(key);
    if (cached && cached.version === version) {
      hits += 1;
      // Most recently used goes to the back of the eviction queue.
      touch(cached);
      return send(req, res, values, cached, "HIT", res.writeHead as WriteHead, res.end as End);
    }
    // The page renders exactly what the key holds: parameters it does not read are not passed on.
    if (canonical.url !== url) req.url = canonical.url;
    misses += 1;
    // A crawler goes through every name, each once in a long while: a page it asks for is kept only when
    // it was asked for lately by a crawler or a script already (a monitor's page is, a sweep's are not),
    // so a sweep of the catalogue neither pushes out the pages people read nor spends work keeping its own.
    if (isCrawler(headers["user-agent"]) && !crawlerPages.seenAgain(key)) return renderAndSend(req, res, values, null);
    renderAndSend(req, res, values, { key, version, search: canonical.search });
  }

  /**
   * Renders a public page into memory and sends it, compressed once; keeps it when `keepAs` says under
   * which key and content version. A page not kept goes out the same way (it is a first render too).
   */
  function renderAndSend(
    req: IncomingMessage,
    res: ServerResponse,
    values: RequestValues,
    keepAs: { key: string; version: number; search: boolean } | null,
  ) {
    // The render gives the effects to repeat on a hit.
    const hitEffects: HitEffect[] = [];
    values.pageCacheCapture = { hitEffects };
    render!(req, values).then(
      async (page) => {
        if (res.destroyed) return;
        const storedHeaders = page.body.length <= MAX_PAGE_BYTES ? storableHeaders(page.status, page.headers) : null;
        if (!storedHeaders) {
          // Not for keeping (a redirect, a cookie, no-store...): sent as rendered.
          res.writeHead(page.status, { ...page.headers, "x-request-id": values.requestId });
          res.end(page.body);
          return;
        }
        const entry = makeEntry(keepAs, page.status, storedHeaders, page.body, hitEffects);
        if (!keepAs) return send(req, res, values, entry, "PASS", res.writeHead as WriteHead, res.end as End);
        try {
          // Made-up pages (a search, a 404, a Host nobody configured) go to the small budget.
          entry.minor = keepAs.search || page.status === 404 || !(await isKnownHost(req.headers.host ?? ""));
          // A write landed while the page rendered: serve what was rendered, but do not keep it.
          if ((await currentContentVersion()) === keepAs.version && keepAs.version === seenVersion) remember(entry);
        } catch {
          // The database cannot say now: serve the page without keeping it.
        }
        send(req, res, values, entry, "MISS", res.writeHead as WriteHead, res.end as End);
      },
      (error: unknown) => onError(req, res, values, error),
    );
  }

  middleware.clear = clear;
  middleware.stats = () => ({
    entries: entries.size + minorEntries.size,
    bytes,
    minorEntries: minorEntries.size,
    minorBytes,
    hits,
    misses,
  });
  return middleware;
}

/** A rendered page as the cache holds it; `keepAs` null: a page sent once (no ETag). */
function makeEntry(
  keepAs: { key: string; version: number } | null,
  status: number,
  storedHeaders: OutgoingHttpHeaders,
  identity: Buffer,
  hitEffects: HitEffect[],
): Entry {
  const etag = keepAs ? `W/"${createHash("sha1").update(identity).digest("base64url")}"` : null;
  storedHeaders.vary = "Accept-Encoding";
  if (etag) storedHeaders.etag = etag;
  storedHeaders["cache-control"] ??= "no-cache";
  // A 304 carries the page's headers (security headers included) except those describing a body.
  const { "content-type": _contentType, ...notModifiedHeaders } = storedHeaders;
  return {
    key: keepAs?.key ?? "",
    version: keepAs?.version ?? -1,
    status,
    etag,
    identity,
    variants: {},
    headers: {},
    notModifiedHeaders,
    storedHeaders,
    hitEffects,
    bytes: identity.length + 512,
    minor: false,
  };
}

function runHitEffects(req: IncomingMessage, entry: Entry) {
  if (entry.hitEffects.length === 0) return;
  const request: CachedRequest = {
    method: req.method ?? "GET",
    headers: {
      get: (name) => {
        const value = req.headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
      },
    },
  };
  for (const effect of entry.hitEffects) {
    try {
      effect(request);
    } catch (error) {
      log.error({ error }, "page cache: an effect of a cached page failed");
    }
  }
}

/** The headers to keep with a page, or null when the response must not be cached. */
function storableHeaders(status: number, headers: OutgoingHttpHeaders): OutgoingHttpHeaders | null {
  if (status !== 200 && status !== 404) return null;
  if (headers["set-cookie"] !== undefined) return null;
  if (headers["content-encoding"] !== undefined && headers["content-encoding"] !== "identity") return null;
  if (/no-store|private/i.test(String(headers["cache-control"] ?? ""))) return null;
  if (/event-stream/i.test(String(headers["content-type"] ?? ""))) return null;
  const vary = String(headers.vary ?? "")
    .toLowerCase()
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part && part !== "accept-encoding");
  if (vary.length > 0) return null;
  const stored: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers))
    if (!UNSTORED_HEADERS.has(name) && value !== undefined) stored[name] = value;
  return stored;
}

function etagMatches(header: string, etag: string): boolean {
  if (header.trim() === "*") return true;
  const opaque = etag.slice(2);
  return header.split(",").some((candidate) => {
    const value = candidate.trim();
    return value === etag || value === opaque;
  });
}
