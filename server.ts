import "./server-env";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express from "express";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ServerBuild } from "react-router";

type AppEntry = {
  startApp: () => Promise<void>;
  stopApp: () => Promise<void>;
  closeAllStreams: () => void;
  createPageCache: () => (req: http.IncomingMessage, res: http.ServerResponse, next: () => void) => void;
  env: { PORT: number };
};

const root = path.dirname(fileURLToPath(import.meta.url));
const SHUTDOWN_GRACE_MS = 10_000;

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

function createServerApp(build: ServerBuild): express.Express {
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
  server.use((req, _res, next) => {
    // The only client address the app trusts; whatever a client sent under this name is replaced.
    req.headers["x-real-client-ip"] = req.socket.remoteAddress ?? "unknown";
    next();
  });
  server.use((req, _res, next) => {
    // A malformed Host header ("[::1", a bad port) would make the request URL unparsable and the
    // request a 500: treat it as no host at all. The app sees "localhost" and shows the normal splash.
    try {
      new URL(`http://${req.headers.host ?? ""}/`);
    } catch {
      req.headers.host = "localhost";
    }
    next();
  });
  server.all("/{*splat}", createRequestHandler({ build }));
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
  const expressApp = createServerApp(build);
  const pageCache = app.createPageCache();
  // A cached public page is answered before express runs (see app/server/page-cache.server.ts).
  const httpServer = http.createServer((req, res) => pageCache(req, res, () => expressApp(req, res)));
  httpServer.listen(app.env.PORT, () => {
    const address = httpServer.address();
    const port = typeof address === "object" && address ? address.port : app.env.PORT;
    console.log(JSON.stringify({ msg: "listening", url: `http://localhost:${port}` }));
  });

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(JSON.stringify({ msg: "shutting down", signal }));
    const force = setTimeout(() => httpServer.closeAllConnections(), SHUTDOWN_GRACE_MS);
    force.unref();
    // Stop accepting, end event streams, let in-flight requests finish, then close the database.
    httpServer.close(async () => {
      await app.stopApp();
      process.exit(0);
    });
    app.closeAllStreams();
    httpServer.closeIdleConnections();
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

void main();
