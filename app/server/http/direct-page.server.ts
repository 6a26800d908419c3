// Public page GETs answered by React Router straight from node:http, without express (server.ts).
// A first render of a domain page spent about a fifth of its CPU time in the express chain around
// React Router: the router, a static-file lookup (a stat call) for a path that is never a file, the
// compression stream, and a chunked web-stream copy of a 9 KB page. Here the page is rendered into one
// buffer (entry.server.tsx, `renderInto`) and sent with a Content-Length; a client that takes gzip gets it at level 1 (a page seen
// once is not worth more CPU; the page cache makes its own variants for pages seen again).
import type { IncomingMessage, ServerResponse } from "node:http";
import { createRequestHandler, matchRoutes, type ServerBuild } from "react-router";
import { acceptsGzip, compressPage, MIN_COMPRESS_BYTES } from "./compression.server";
import { createDomainShells, type RenderedPage } from "./domain-shell.server";
import { answerError, copyResponseHeaders, fetchRequestFrom, refusePlain, routeTree } from "./express.server";
import { withGivenLoaderResults } from "./page-shell.server";
import { routerContextFor, type RequestValues } from "./request-context.server";

/**
 * The public pages: the browse page or a lander at /, and /domain/* and /contact/* (no file is ever
 * there). A segment of dots (plain or %2e) is left to express, whose static handler answers it.
 */
const DIRECT_PATH = /^\/(?:(?:domain|contact)\/(?!\.{1,2}(?:\?|$))(?![^/?]*%2e)[^/?]+)?(?:\?|$)/i;

export interface DirectPageOptions {
  build: ServerBuild;
  mode: "development" | "production";
}

export function isDirectPageRequest(req: IncomingMessage): boolean {
  return (req.method === "GET" || req.method === "HEAD") && DIRECT_PATH.test(req.url ?? "");
}

/** Paths of each shape a direct page has, and the parents React Router lists in a page's manifest. */
const SAMPLE_PATHS = ["/", "/domain/example.com", "/contact/example.com", "/domain", "/contact"];

/**
 * React Router rebuilds its route objects on every render (createServerRoutes, createStaticRouter, the
 * manifest's route matching), work that grows with the number of routes. The public pages render
 * with a build that keeps only the routes their paths can reach: the root, the matched route and the
 * root-level index and catch-all, which are also all that a page's manifest lists (the browser asks
 * /__manifest, served with the whole build, for the others). The page comes out byte for byte the same.
 */
export function publicPagesBuild(build: ServerBuild): ServerBuild {
  const tree = routeTree(build);
  const ids = new Set<string>();
  for (const path of SAMPLE_PATHS) {
    for (const match of (matchRoutes(tree as never, path) ?? []) as Array<{ route: { id: string } }>)
      ids.add(match.route.id);
  }
  const keep = <T>(routes: Record<string, T>) =>
    Object.fromEntries(Object.entries(routes).filter(([id]) => ids.has(id)));
  return {
    ...build,
    routes: keep(build.routes),
    assets: { ...build.assets, routes: keep(build.assets.routes) },
  } as ServerBuild;
}

export function createDirectPageHandler(options: DirectPageOptions) {
  const build = withGivenLoaderResults(publicPagesBuild(options.build));
  const handle = createRequestHandler(build, options.mode);
  const shells = createDomainShells(build, async (request, values) => {
    const renderInto: { body?: Buffer } = {};
    values.renderInto = renderInto;
    const response = await handle(request, routerContextFor(values));
    if (!renderInto.body) return null;
    return { status: response.status, headers: [...response.headers.entries()], body: renderInto.body };
  });
  const handler = async (req: IncomingMessage, res: ServerResponse, values: RequestValues): Promise<void> => {
    try {
      // Not abortable: a public page renders into one buffer in a millisecond or two (streamTimeout bounds
      // the rest), and a Request that follows a signal cost about 10 µs, a twentieth of a first render.
      const request = fetchRequestFrom(req, res, values.protocol, { abortable: false });
      if (!request) return refusePlain(res, 400, "Bad request");
      const shellPage = req.method === "GET" ? await shells.fromShell(request, req.url ?? "/", values) : null;
      if (shellPage) return send(req, res, values, shellPage);
      const renderInto: { body?: Buffer } = {};
      values.renderInto = renderInto;
      const response = await handle(request, routerContextFor(values));
      if (res.destroyed || res.writableEnded) {
        await response.body?.cancel();
        return;
      }
      res.statusCode = response.status;
      if (response.statusText) res.statusMessage = response.statusText;
      copyResponseHeaders(response, res, req.url ?? "/");
      const body = renderInto.body ?? (response.body ? await readAll(response.body) : null);
      if (res.destroyed || res.writableEnded) return;
      sendBody(req, res, values, body);
    } catch (error) {
      answerError(req, res, values, error);
    }
  };
  return Object.assign(handler, { shellStats: shells.stats });
}

/** A page made from a shell: a 200 with the headers its sample render had (no cookie, not private). */
function send(req: IncomingMessage, res: ServerResponse, values: RequestValues, page: RenderedPage): void {
  if (res.destroyed || res.writableEnded) return;
  res.statusCode = page.status;
  for (const [name, value] of page.headers) res.setHeader(name, value);
  sendBody(req, res, values, page.body);
}

/** The page, gzipped at level 1 for a client that takes it, unless the page cache keeps it (it compresses). */
function sendBody(req: IncomingMessage, res: ServerResponse, values: RequestValues, page: Buffer | null): void {
  let body = page;
  if (body && !values.pageCacheCapture && isCompressible(res)) {
    res.setHeader("Vary", "Accept-Encoding");
    if (body.length >= MIN_COMPRESS_BYTES && acceptsGzip(req.headers["accept-encoding"])) {
      body = compressPage(body, "gzip", true);
      res.setHeader("Content-Encoding", "gzip");
    }
  }
  if (body) res.setHeader("Content-Length", body.length);
  res.end(req.method === "HEAD" ? undefined : (body ?? undefined));
}

function isCompressible(res: ServerResponse): boolean {
  return (
    /^text\/html\b/i.test(String(res.getHeader("content-type") ?? "")) &&
    res.getHeader("content-encoding") === undefined
  );
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
  }
  return Buffer.concat(chunks, size);
}
