import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";

// Small modules the public pages share (1-2 KB each) go out as one file, not one request each: on a slow
// mobile link every extra request delays the page. Nothing here may import zod or admin code.
const PUBLIC_SHARED =
  /\/app\/(?:lib\/(?:domain-name|money|seo|search|response-window|host|inquiry|offer-floor|test-card)\.ts|components\/(?:ui|icons)\.tsx|components\/(?:use-live-fee|nonce)\.ts)$/;

// React's server renderer is bundled into the production server (react-dom itself and react stay packages)
// so that its `async_hooks` import can be the storage without async hooks: why in
// app/server/runtime/sync-local-storage.server.ts. Development loads it from node_modules as it is.
const RENDERER_FILE = /\/node_modules\/react-dom\/(?:server\.node\.js|cjs\/react-dom-server\.node\.)/;
const SYNC_LOCAL_STORAGE = fileURLToPath(new URL("app/server/runtime/sync-local-storage.server.ts", import.meta.url));

function reactDomServerWithoutAsyncHooks(): Plugin {
  return {
    name: "react-dom-server-without-async-hooks",
    apply: "build",
    enforce: "pre",
    resolveId(source, importer, options) {
      if (source === "react-dom/server" && options.ssr) return createRequire(import.meta.url).resolve(source);
      if ((source === "async_hooks" || source === "node:async_hooks") && importer && RENDERER_FILE.test(importer))
        return SYNC_LOCAL_STORAGE;
      return null;
    },
  };
}

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [tailwindcss(), reactRouter(), reactDomServerWithoutAsyncHooks()],
  build: {
    target: "es2022",
    rolldownOptions: isSsrBuild
      ? undefined
      : {
          output: {
            codeSplitting: {
              // React and React Router, which every page loads, form their own chunk: otherwise the bundler
              // pulls them into "shared" with the modules that import them.
              groups: [
                { name: "shared", test: PUBLIC_SHARED, priority: 1 },
                { name: "react", test: /\/node_modules\/(?:react|react-dom|react-router|scheduler)\//, priority: 2 },
              ],
            },
          },
        },
  },
  ssr: { external: ["better-sqlite3"] },
}));
