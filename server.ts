import "./server-env";
import compression from "compression";
import express, { type ErrorRequestHandler } from "express";
import { randomBytes, randomUUID } from "node:crypto";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ServerBuild } from "react-router";
import { createDirectPageHandler, isDirectPageRequest } from "./app/server/http/direct-page.server";
import { bodyLimit, pageActionContentType, reactRouterHandler, refusePlain } from "./app/server/http/express.server";
import { createRequestOrigin } from "./app/server/http/proxy.server";
import { acceptSameOriginNullOrigin } from "./app/server/http/null-origin.server";
import { requestLogLine } from "./app/server/http/request-log.server";
import { securityHeaders } from "./app/server/http/security.server";

type AppEntry = {
  startApp: () => Promise<void>;
  stopApp: () => Promise<void>;
  closeAllStreams: () => void;
  beginShutdown: () => void;
  createPageCache: () => ((req: http.IncomingMessage, res: http.ServerResponse, next: () => void) => void) & {
    stats: () => { entries: number; bytes: number; hits: number; misses: number };
  };
  createFeeStream: () => (req: http.IncomingMessage, res: http.ServerResponse, next: () => void) => void;
  mayUpload: (req: http.IncomingMessage) => Promise<boolean>;
  createSignInGuard: () => (req: http.IncomingMessage, res: http.ServerResponse, next: () => void) => void;
  env: {
    PORT: number;
    LOG_REQUESTS: "true" | "false";
    TRUST_PROXY: string;
    PUBLIC_URL?: string;
    STRIPE_API_BASE?: string;
    MAX_BODY_BYTES: number;
    MAX_UPLOAD_BYTES: number;
  };
};

/**
 * What server.ts attaches to each request: its id (X-Request-Id, logs), its CSP nonce and the scheme the
 * browser used (through a TLS proxy: https).
 */
type TaggedRequest = http.IncomingMessage & { requestId?: string; cspNonce?: string; publicProtocol?: "http" | "https" };

// The project root: server.ts runs from it (tsx, development); its build runs as build/server.js.
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.basename(here) === "build" ? path.dirname(here) : here;
const SHUTDOWN_GRACE_MS = 10_000;
let stopping = false;

async function loadBuild(): Promise<{ build: ServerBuild; app: AppEntry }> {
  try {
    const build = (await import(path.join(root, "build/server/index.js"))) as ServerBuild;
    return { build, app: build.entry.module as unknown as AppEntry };
  } catch (error) {
    // Configuration and database errors already name the variable or path: print them plainly.
    console.error((error as Error).message);
    process.exit(1);
  }
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
 * Request id (X-Request-Id, logs), client address and scheme (through the proxies TRUST_PROXY trusts),
 * and the one-line JSON log, for every response, cached pages included.
 */
function requestTagger(env: AppEntry["env"]) {
  const originOf = createRequestOrigin({ trustProxy: env.TRUST_PROXY, publicUrl: env.PUBLIC_URL });
  return (req: TaggedRequest, res: http.ServerResponse) => {
    const started = performance.now();
    const origin = originOf(req);
    // The only client address the app trusts (clientIp()); whatever a client sent under this name is replaced.
    req.headers["x-real-client-ip"] = origin.clientAddress;
    acceptSameOriginNullOrigin(req.method, req.headers);
    req.publicProtocol = origin.protocol;
    const requestId = randomUUID();
    req.requestId = requestId;
    res.setHeader("X-Request-Id", requestId);
    if (stopping) res.setHeader("Connection", "close");
    if (env.LOG_REQUESTS === "true") {
      res.once("close", () => {
        const line = requestLogLine({
          requestId,
          method: req.method ?? "",
          originalUrl: req.url ?? "",
          status: res.statusCode,
          durationMs: performance.now() - started,
          aborted: !res.writableFinished,
        });
        process.stdout.write(`${line}\n`);
      });
    }
  };
}

/**
 * CSP nonce and security headers for every response made here (static files included). A page from
 * the page cache does not need them: it goes out with the headers stored when it was rendered (its
 * CSP carries the nonce in its body).
 */
function responseSecurity(env: AppEntry["env"]) {
  const security = { stripeApiBase: env.STRIPE_API_BASE };
  return (req: TaggedRequest, res: http.ServerResponse) => {
    const nonce = nextNonce();
    req.cspNonce = nonce;
    const headers = securityHeaders(security, { path: req.url ?? "/", nonce, https: req.publicProtocol === "https" });
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  };
}

/** An error no route handled: a 4xx from a parser stays a 4xx; anything else is logged and answered 500. */
function answerError(req: TaggedRequest, res: http.ServerResponse, error: unknown): void {
  const status = Number((error as { status?: unknown }).status);
  if (status >= 400 && status < 500) return refusePlain(res, status, "Bad request");
  console.error(
    JSON.stringify({
      time: new Date().toISOString(),
      level: "error",
      msg: "unhandled error",
      requestId: req.requestId,
      method: req.method,
      error: String((error as Error)?.stack ?? error),
    }),
  );
  refusePlain(res, 500, "Internal Server Error");
}

function createServerApp(build: ServerBuild, app: AppEntry): express.Express {
  const { env } = app;
  const server = express();
  server.disable("x-powered-by");
  server.use(
    compression({
      // Event streams must reach the browser at once, not sit in the compressor's buffer.
      filter: (req, res) => !String(res.getHeader("Content-Type") ?? "").startsWith("text/event-stream") && compression.filter(req, res),
    }),
  );
  server.use(
    "/assets",
    express.static(path.join(root, "build/client/assets"), { immutable: true, maxAge: "1y", index: false }),
  );
  server.use(express.static(path.join(root, "build/client"), { maxAge: "1h", index: false }));
  server.use(bodyLimit({ maxBodyBytes: env.MAX_BODY_BYTES, maxUploadBytes: env.MAX_UPLOAD_BYTES, mayUpload: app.mayUpload }));
  server.use(pageActionContentType(build));
  server.all(
    "/{*splat}",
    reactRouterHandler({
      build,
      getLoadContext: (req) => ({ cspNonce: (req as TaggedRequest).cspNonce, requestId: (req as TaggedRequest).requestId }),
    }),
  );
  const onError: ErrorRequestHandler = (error, req, res, _next) => answerError(req, res, error);
  server.use(onError);
  return server;
}

async function main() {
  const { build, app } = await loadBuild();
  try {
    await app.startApp();
  } catch (error) {
    console.error(`Start-up failed: ${(error as Error).message}`);
    process.exit(1);
  }
  const expressApp = createServerApp(build, app);
  const directPage = createDirectPageHandler({
    build,
    getLoadContext: (req) => ({ cspNonce: (req as TaggedRequest).cspNonce, requestId: (req as TaggedRequest).requestId }),
    onError: answerError,
  });
  const pageCache = app.createPageCache();
  const feeStream = app.createFeeStream();
  // Sign-in floods are refused in a few bytes before express (app/server/http/sign-in-guard.server.ts).
  const signInGuard = app.createSignInGuard();
  const tagRequest = requestTagger(app.env);
  const secure = responseSecurity(app.env);
  // Cached public pages, the live fee stream and the public pages' first renders are answered before
  // express runs (app/server/http/page-cache.server.ts, app/server/http/fee-stream.server.ts,
  // app/server/http/direct-page.server.ts).
  const httpServer = http.createServer((req, res) => {
    tagRequest(req, res);
    pageCache(req, res, () => {
      secure(req, res);
      feeStream(req, res, () => (isDirectPageRequest(req) ? void directPage(req, res) : signInGuard(req, res, () => expressApp(req, res))));
    });
  });
  httpServer.on("error", (error) => {
    console.error(`Cannot listen on port ${app.env.PORT} (PORT): ${error.message}`);
    process.exit(1);
  });
  httpServer.listen(app.env.PORT, () => {
    const address = httpServer.address();
    const port = typeof address === "object" && address ? address.port : app.env.PORT;
    console.log(JSON.stringify({ msg: "listening", url: `http://localhost:${port}` }));
  });

  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.beginShutdown();
    console.log(JSON.stringify({ msg: "shutting down", signal }));
    const force = setTimeout(() => httpServer.closeAllConnections(), SHUTDOWN_GRACE_MS);
    force.unref();
    // Stop accepting, end event streams, let in-flight requests finish, then close the database.
    httpServer.close(async () => {
      clearTimeout(force);
      await app.stopApp();
      // What the page cache held at the end (npm run bench reports pages held per MB from it).
      console.log(JSON.stringify({ msg: "page cache", ...pageCache.stats() }));
      // Domain pages made from prepared shells against those rendered in full (app/server/http/domain-shell.server.ts).
      console.log(JSON.stringify({ msg: "page shells", ...directPage.shellStats() }));
      console.log(JSON.stringify({ msg: "stopped" }));
      process.exit(0);
    });
    app.closeAllStreams();
    httpServer.closeIdleConnections();
    // A keep-alive connection becomes idle once its in-flight request is answered: close it then.
    const sweep = setInterval(() => httpServer.closeIdleConnections(), 250);
    sweep.unref();
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

void main();
