import "./server-env";
import { randomBytes, randomUUID } from "node:crypto";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ServerBuild } from "react-router";
import type { ViteDevServer } from "vite";
// Types only: everything with state (env, the database, the logger, the caches) comes from the build's
// entry module at run time, so server.ts and the routes share one copy of it. The pure helper imported
// below holds no state (tests/unit/server-boundary.test.ts fails when one reaches a module that does).
import type { RequestValues, ServerApp } from "./app/entry.server";
import { createRequestOrigin } from "./app/server/http/proxy.server";

// The project root: server.ts runs from it (development); its build runs as build/server.js.
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.basename(here) === "build" ? path.dirname(here) : here;
/** `npm run dev`: the same server with Vite in middleware mode (hot reload) instead of the build. */
const development = process.env.NODE_ENV === "development";
const SHUTDOWN_GRACE_MS = 10_000;
let stopping = false;

/** The build's entry module exports `serverApp` (app/entry.server.tsx); its type is checked here. */
function hasServerApp(module: object): module is { serverApp: ServerApp } {
  return "serverApp" in module;
}

function serverAppOf(build: ServerBuild): ServerApp {
  const entry: object = build.entry.module;
  if (!hasServerApp(entry)) throw new Error("the server build's entry module does not export serverApp");
  return entry.serverApp;
}

/** The React Router build: in production build/server/index.js; in development Vite's current one. */
type BuildSource = () => Promise<ServerBuild>;

async function productionBuild(): Promise<BuildSource> {
  const build = (await import(path.join(root, "build/server/index.js"))) as ServerBuild;
  return async () => build;
}

async function developmentBuild(httpServer: http.Server): Promise<{ vite: ViteDevServer; source: BuildSource }> {
  const { createServer } = await import("vite");
  const vite = await createServer({ root, server: { middlewareMode: true, hmr: { server: httpServer } } });
  const source = async () => (await vite.ssrLoadModule("virtual:react-router/server-build")) as ServerBuild;
  return { vite, source };
}

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

/**
 * The one place a request's values are made from the Node request: its id (X-Request-Id, logs), the
 * client address and scheme (through the proxies TRUST_PROXY trusts) and its CSP nonce. Every stage
 * after it gets them as an argument; React Router's loaders read them from their context. Also the
 * request log line (LOG_REQUESTS), for every response, cached pages included.
 */
function requestValuesMaker(app: ServerApp) {
  const { env } = app;
  const originOf = createRequestOrigin({ trustProxy: env.TRUST_PROXY, publicUrl: env.PUBLIC_URL });
  return (req: http.IncomingMessage, res: http.ServerResponse): RequestValues => {
    const started = performance.now();
    const origin = originOf(req);
    // X-Request-Id goes out with the security headers, or with a cached page's own (page-cache.server.ts):
    // a header set here would make every cached hit's writeHead merge its stored headers one by one.
    const requestId = randomUUID();
    if (stopping) res.setHeader("Connection", "close");
    if (env.LOG_REQUESTS === "true") {
      res.once("close", () =>
        app.logRequest({
          requestId,
          method: req.method ?? "",
          originalUrl: req.url ?? "",
          status: res.statusCode,
          durationMs: performance.now() - started,
          aborted: !res.writableFinished,
        }),
      );
    }
    return app.requestValues({
      requestId,
      clientAddress: origin.clientAddress,
      protocol: origin.protocol,
      // Made when first used: a page from the page cache carries its own.
      cspNonce: nextNonce,
    });
  };
}

/**
 * Security headers, the CSP with this request's nonce among them, and X-Request-Id, for every response
 * made here (static files included). A page from the page cache does not need them: it goes out with the
 * headers stored when it was rendered (its CSP carries the nonce in its body) and its own X-Request-Id.
 */
function responseSecurity(app: ServerApp) {
  const security = { stripeApiBase: app.env.STRIPE_API_BASE };
  const headersFor = (req: http.IncomingMessage, values: RequestValues) =>
    app.securityHeaders(security, { path: req.url ?? "/", nonce: values.cspNonce, https: values.protocol === "https" });
  const secure = (req: http.IncomingMessage, res: http.ServerResponse, values: RequestValues) => {
    for (const [name, value] of Object.entries(headersFor(req, values))) res.setHeader(name, value);
    res.setHeader("X-Request-Id", values.requestId);
  };
  return Object.assign(secure, { headersFor });
}

/** The handlers made from one build: once in production; again after a change in development. */
function handlersOf(app: ServerApp, build: ServerBuild) {
  const mode = development ? "development" : "production";
  return {
    route: app.createRouteHandler({ build, mode, staticFiles: development ? null : path.join(root, "build/client") }),
    page: app.createPageRenderer({ build, mode }),
  };
}

async function main() {
  const httpServer = http.createServer();
  let vite: ViteDevServer | undefined;
  let source: BuildSource;
  let app: ServerApp;
  try {
    if (development) ({ vite, source } = await developmentBuild(httpServer));
    else source = await productionBuild();
    app = serverAppOf(await source());
  } catch (error) {
    // Configuration and database errors already name the variable or path: print them plainly.
    console.error((error as Error).message);
    process.exit(1);
  }
  const { log } = app;
  try {
    await app.startApp();
  } catch (error) {
    log.fatal(`Start-up failed: ${(error as Error).message}`);
    process.exit(1);
  }
  // Made once per build: in development Vite hands over a new build object after a change.
  const handlers = new WeakMap<ServerBuild, ReturnType<typeof handlersOf>>();
  const handlersFor = async () => {
    const build = await source();
    let made = handlers.get(build);
    if (!made) handlers.set(build, (made = handlersOf(development ? serverAppOf(build) : app, build)));
    return made;
  };
  const initial = await handlersFor();
  const valuesOf = requestValuesMaker(app);
  const secure = responseSecurity(app);
  // The page cache is off in development: an edited page shows at once. It wraps a render of a public
  // page into status, headers (the security headers, then the route's own) and body.
  const pageCache = app.createPageCache(
    development
      ? { enabled: false }
      : {
          render: async (req, res, values) => {
            const page = await initial.page(req, res, values);
            const security: Record<string, string | string[] | number> = {};
            for (const [name, value] of Object.entries(secure.headersFor(req, values)))
              security[name.toLowerCase()] = value;
            return { ...page, headers: { ...security, ...page.headers } };
          },
          onError: app.answerError,
        },
  );
  const feeStream = app.createFeeStream();
  // Sign-in floods are refused in a few bytes before the routes (app/server/http/sign-in-guard.server.ts).
  const signInGuard = app.createSignInGuard();

  const answer = (req: http.IncomingMessage, res: http.ServerResponse, values: RequestValues) => {
    const route = (made: ReturnType<typeof handlersOf>) =>
      signInGuard(req, res, values, () => made.route(req, res, values));
    if (!vite) return route(initial);
    vite.middlewares(req, res, () =>
      handlersFor().then(route, (error: unknown) => app.answerError(req, res, values, error)),
    );
  };
  // Cached public pages and the live fee stream are answered before the routes' other work
  // (app/server/http/page-cache.server.ts, app/server/http/fee-stream.server.ts).
  httpServer.on("request", (req: http.IncomingMessage, res: http.ServerResponse) => {
    const values = valuesOf(req, res);
    pageCache(req, res, values, () => {
      secure(req, res, values);
      feeStream(req, res, values, () => answer(req, res, values));
    });
  });
  httpServer.on("error", (error) => {
    const where = app.env.HOST ? `${app.env.HOST} port ${app.env.PORT} (HOST, PORT)` : `port ${app.env.PORT} (PORT)`;
    log.fatal(`Cannot listen on ${where}: ${error.message}`);
    process.exit(1);
  });
  // HOST unset: every interface (Node's default).
  httpServer.listen(app.env.PORT, app.env.HOST, () => {
    const address = httpServer.address();
    const port = typeof address === "object" && address ? address.port : app.env.PORT;
    const bound = typeof address === "object" && address ? address.address : "";
    const everywhere = !app.env.HOST || bound === "0.0.0.0" || bound === "::";
    const host = everywhere ? "localhost" : bound.includes(":") ? `[${bound}]` : bound;
    const mode = development ? "development" : "production";
    const pageCache = !development && app.env.PAGE_CACHE === "true";
    log.info({ url: `http://${host}:${port}`, address: bound, mode, pageCache }, "listening");
  });

  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.beginShutdown();
    log.info({ signal }, "shutting down");
    const force = setTimeout(() => httpServer.closeAllConnections(), SHUTDOWN_GRACE_MS);
    force.unref();
    // Stop accepting, end event streams, let in-flight requests finish, then close the database.
    httpServer.close(async () => {
      clearTimeout(force);
      // Vite's watcher and hot-reload socket: its close() is not awaited (it can take longer than the rest).
      void vite?.close().catch(() => {});
      await app.stopApp();
      // What the page cache held at the end (npm run bench reports pages held per MB from it).
      log.info(pageCache.stats(), "page cache");
      log.info("stopped");
      app.flushLogs();
      process.exit(0);
    });
    app.closeAllStreams();
    httpServer.closeIdleConnections();
    // A keep-alive connection becomes idle once its in-flight request is answered: close it then.
    const sweep = setInterval(() => httpServer.closeIdleConnections(), 250);
    sweep.unref();
  };
  // React Router's child compiler in development is a Vite server of its own, which exits the process on
  // SIGTERM (or when stdin ends): this server stops in its own order instead.
  process.removeAllListeners("SIGTERM");
  if (vite) process.stdin.removeAllListeners("end");
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

void main();
