// The app as one request handler and its lifecycle, in the shape of React Router's node-custom-server
// template: Vite builds this module with the routes (vite.config.ts) into build/server/index.js, and
// server.ts runs it (in development Vite loads this file itself). Everything with state (env, the
// database, the logger, the caches) is one copy shared by the routes and the handler below.
//
// A request goes: its values (request id, client address and scheme, CSP nonce), the page cache (a
// public page kept in memory is sent from there), the security headers, the live fee stream, the
// sign-in guard, then express: compression, static files, body limits, the page actions' content-type
// guard and React Router through @react-router/express. docs/architecture.md draws it.
import { createRequestHandler as createExpressHandler } from "@react-router/express";
import express from "express";
import { randomBytes, randomUUID } from "node:crypto";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as build from "virtual:react-router/server-build";
import { createFeeStream } from "../app/server/http/fee-stream.server";
import { closeAllStreams } from "../app/server/catalog/events.server";
import { answerError, bodyLimit, pageActionContentType } from "../app/server/http/express.server";
import { compressStreamed } from "../app/server/http/compression.server";
import { createPageCache } from "../app/server/http/page-cache.server";
import { createPageRenderer, reactRouterRequest, withBody } from "../app/server/http/react-router-request.server";
import { createRequestOrigin } from "../app/server/http/proxy.server";
import { logRequest } from "../app/server/http/request-log.server";
import { requestValuesFor, routerContextFor, type RequestValues } from "../app/server/http/request-context.server";
import { isPrivatePath, securityHeaders } from "../app/server/http/security.server";
import { createSignInGuard } from "../app/server/http/sign-in-guard.server";
import { mayUpload } from "../app/server/http/uploads.server";
import { env } from "../app/server/runtime/env.server";
import { beginShutdown } from "../app/server/runtime/lifecycle.server";
import { flushLogs, log } from "../app/server/runtime/log.server";
import { startApp, stopApp } from "../app/server/runtime/startup.server";

const development = process.env.NODE_ENV === "development";
const mode = development ? "development" : "production";
const SHUTDOWN_GRACE_MS = 10_000;
let stopping = false;

// CSP nonces come from a pool of random bytes refilled 256 at a time: one getrandom call per 256
// requests instead of one per request. Each nonce is used once.
const NONCE_BYTES = 16;
let noncePool = Buffer.alloc(0);
let nonceOffset = 0;
function nextNonce(): string {
  if (nonceOffset >= noncePool.length) {
    noncePool = randomBytes(NONCE_BYTES * 256);
    nonceOffset = 0;
  }
  nonceOffset += NONCE_BYTES;
  return noncePool.toString("base64", nonceOffset - NONCE_BYTES, nonceOffset);
}

const originOf = createRequestOrigin({ trustProxy: env.TRUST_PROXY, publicUrl: env.PUBLIC_URL });
/** The request values of each response that goes on to express (keyed by the response: see withBody). */
const valuesByResponse = new WeakMap<ServerResponse, RequestValues>();

/**
 * The one place a request's values are made from the Node request: its id (X-Request-Id, logs), the
 * client address and scheme (through the proxies TRUST_PROXY trusts) and its CSP nonce. Loaders read
 * them from their context (`requestValues(context)`). Also the request log line (LOG_REQUESTS), for
 * every response, cached pages included.
 */
function requestValuesOf(req: IncomingMessage, res: ServerResponse): RequestValues {
  const started = performance.now();
  const origin = originOf(req);
  // X-Request-Id goes out with the security headers, or with a cached page's own (page-cache.server.ts).
  const requestId = randomUUID();
  if (stopping) res.setHeader("Connection", "close");
  if (env.LOG_REQUESTS === "true") {
    const originalUrl = req.url ?? "";
    res.once("close", () =>
      logRequest({
        requestId,
        method: req.method ?? "",
        originalUrl,
        status: res.statusCode,
        durationMs: performance.now() - started,
        aborted: !res.writableFinished,
      }),
    );
  }
  // The nonce is made when first used: a page from the page cache carries its own.
  return requestValuesFor({ ...origin, requestId, cspNonce: nextNonce });
}

function valuesOf(res: ServerResponse): RequestValues {
  const values = valuesByResponse.get(res);
  if (!values) throw new Error("a response without request values");
  return values;
}

const security = { stripeApiBase: env.STRIPE_API_BASE };
function securityHeadersFor(req: IncomingMessage, values: RequestValues): Record<string, string> {
  return securityHeaders(security, {
    path: req.url ?? "/",
    nonce: values.cspNonce,
    https: values.protocol === "https",
  });
}

/**
 * React Router behind express. The adapter appends a route's headers to the response; here a route's
 * own header replaces the server-wide default set before it (a Referrer-Policy, a Cache-Control) and
 * goes out as the route wrote it (Headers already joins each name's values into one); only Set-Cookie
 * adds up. Admin and payment pages keep their `no-store`, whatever a route says.
 */
export const app = express();
app.disable("x-powered-by");
const append = app.response.append;
app.response.append = function replaceOrAppend(field: string, value?: string | string[]) {
  const name = field.toLowerCase();
  if (name === "set-cookie") return append.call(this, field, value);
  if (name === "cache-control" && isPrivatePath(this.req.url)) return this;
  if (value !== undefined) this.setHeader(field, value);
  return this;
};

const reactRouter = createExpressHandler({
  build,
  mode,
  getLoadContext: (_req, res) => routerContextFor(valuesOf(res)),
});

app.use(compressStreamed);
if (!development) {
  // build/client beside this module's build/server.
  const client = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../client");
  app.use("/assets", express.static(path.join(client, "assets"), { immutable: true, maxAge: "1y", index: false }));
  app.use(express.static(client, { maxAge: "1h", index: false }));
}
const limitBody = bodyLimit({ maxBodyBytes: env.MAX_BODY_BYTES, maxUploadBytes: env.MAX_UPLOAD_BYTES, mayUpload });
const acceptsBody = pageActionContentType(build);
app.use((req, res, next) => {
  const values = valuesOf(res);
  if (!reactRouterRequest(req, res, values)) return;
  const route = (body?: Buffer) => {
    if (acceptsBody(req, res)) void reactRouter(body ? withBody(req, body) : req, res, next);
  };
  // A sign-in body the sign-in guard read already, within its own limit; any other body is limited here.
  if (values.signInBody) return route(values.signInBody);
  limitBody(req, res, route, next);
});
app.use((error: unknown, req: express.Request, res: express.Response, _next: express.NextFunction) =>
  answerError(req, res, valuesOf(res), error),
);

// A public page is rendered by React Router into status, headers (the security headers, then the
// route's own) and body, compressed once and kept while its content is current (PAGE_CACHE). In
// development every request goes to express: an edited page shows at once.
const renderPage = createPageRenderer(build, mode);
const pageCache = createPageCache({
  render: development
    ? undefined
    : async (req, values) => {
        const page = await renderPage(req, values);
        const headers: Record<string, string | string[] | number> = {};
        for (const [name, value] of Object.entries(securityHeadersFor(req, values)))
          headers[name.toLowerCase()] = value;
        return { ...page, headers: { ...headers, ...page.headers } };
      },
  onError: answerError,
});
const feeStream = createFeeStream();
// Sign-in floods are refused in a few bytes before the routes (app/server/http/sign-in-guard.server.ts).
const signInGuard = createSignInGuard();

/** Every request: cached public pages and the live fee stream are answered before express. */
export function handleRequest(req: IncomingMessage, res: ServerResponse): void {
  const values = requestValuesOf(req, res);
  pageCache(req, res, values, () => {
    for (const [name, value] of Object.entries(securityHeadersFor(req, values))) res.setHeader(name, value);
    res.setHeader("X-Request-Id", values.requestId);
    feeStream(req, res, values, () =>
      signInGuard(req, res, values, () => {
        valuesByResponse.set(res, values);
        app(req, res);
      }),
    );
  });
}

/**
 * Starts the app (migrations, the seed, background work), listens on PORT and HOST, and stops in order
 * on SIGTERM or SIGINT: stop accepting, end event streams, let requests in flight finish, close the
 * database. `onStop` runs first (development: Vite's watcher).
 */
export async function run(httpServer: Server, { onStop }: { onStop?: () => void } = {}): Promise<void> {
  try {
    await startApp();
  } catch (error) {
    log.fatal(`Start-up failed: ${(error as Error).message}`);
    process.exit(1);
  }
  httpServer.on("error", (error) => {
    const where = env.HOST ? `${env.HOST} port ${env.PORT} (HOST, PORT)` : `port ${env.PORT} (PORT)`;
    log.fatal(`Cannot listen on ${where}: ${error.message}`);
    process.exit(1);
  });
  // HOST unset: every interface (Node's default).
  httpServer.listen(env.PORT, env.HOST, () => {
    const address = httpServer.address();
    const port = typeof address === "object" && address ? address.port : env.PORT;
    const bound = typeof address === "object" && address ? address.address : "";
    const everywhere = !env.HOST || bound === "0.0.0.0" || bound === "::";
    const host = everywhere ? "localhost" : bound.includes(":") ? `[${bound}]` : bound;
    const cached = !development && env.PAGE_CACHE === "true";
    log.info({ url: `http://${host}:${port}`, address: bound, mode, pageCache: cached }, "listening");
  });

  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    beginShutdown();
    log.info({ signal }, "shutting down");
    onStop?.();
    const force = setTimeout(() => httpServer.closeAllConnections(), SHUTDOWN_GRACE_MS);
    force.unref();
    httpServer.close(async () => {
      clearTimeout(force);
      await stopApp();
      // What the page cache held at the end (npm run bench reports pages held per MB from it).
      log.info(pageCache.stats(), "page cache");
      log.info("stopped");
      flushLogs();
      process.exit(0);
    });
    closeAllStreams();
    httpServer.closeIdleConnections();
    // A keep-alive connection becomes idle once its in-flight request is answered: close it then.
    const sweep = setInterval(() => httpServer.closeIdleConnections(), 250);
    sweep.unref();
  };
  // React Router's child compiler in development is a Vite server of its own, which exits the process on
  // SIGTERM (or when stdin ends): this server stops in its own order instead.
  process.removeAllListeners("SIGTERM");
  if (development) process.stdin.removeAllListeners("end");
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}
