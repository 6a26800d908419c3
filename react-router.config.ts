import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // The production server entry (build/server.js) is built with the app.
  async buildEnd() {
    // @ts-expect-error a plain .mjs script without types
    const { buildServerEntry } = await import("./scripts/build-server.mjs");
    await buildServerEntry();
  },
  future: {
    v8_trailingSlashAwareDataRequests: true,
    v8_passThroughRequests: true,
    // Loaders, actions and entry.server.tsx get a RouterContextProvider: a request's values travel in it
    // (app/server/http/request-context.server.ts).
    v8_middleware: true,
  },
} satisfies Config;
