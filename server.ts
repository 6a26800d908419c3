// The HTTP server, in the shape of React Router's node-custom-server template. The app (server/app.ts:
// the request handler, start-up and shutdown) is built by Vite with the routes into
// build/server/index.js; in development Vite loads server/app.ts itself, with hot reload. Node runs
// this file as it is (type stripping): `npm start` is `node server.ts`.
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type * as ServerApp from "./server/app";

// Before anything loads React, which picks its development build (several times slower) when unset.
if (!process.env.NODE_ENV) process.env.NODE_ENV = "production";
const development = process.env.NODE_ENV === "development";
// A path in a variable: the build need not exist for the type check.
const BUILD_PATH = "./build/server/index.js";
const root = path.dirname(fileURLToPath(import.meta.url));

/** The app module; configuration and database errors already name the variable or path: printed plainly. */
async function load(importApp: () => Promise<unknown>): Promise<typeof ServerApp> {
  try {
    return (await importApp()) as typeof ServerApp;
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}

const httpServer = http.createServer();
if (development) {
  const { createServer } = await import("vite");
  const vite = await createServer({ root, server: { middlewareMode: true, hmr: { server: httpServer } } });
  // The current module on each request: after an edit Vite hands over the new one.
  const current = () => vite.ssrLoadModule("/server/app.ts") as Promise<typeof ServerApp>;
  const app = await load(current);
  httpServer.on("request", (req, res) =>
    vite.middlewares(req, res, () =>
      current().then(
        (latest) => latest.handleRequest(req, res),
        (error: Error) => {
          vite.ssrFixStacktrace(error);
          console.error(error);
          res.statusCode = 500;
          res.end("Internal Server Error\n");
        },
      ),
    ),
  );
  // Vite's watcher and hot-reload socket: its close() is not awaited (it can take longer than the rest).
  await app.run(httpServer, { onStop: () => void vite.close().catch(() => {}) });
} else {
  const app = await load(() => import(path.join(root, BUILD_PATH)));
  httpServer.on("request", app.handleRequest);
  await app.run(httpServer);
}
