import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

// Small modules the public pages share (1-2 KB each) go out as one file, not one request each: on a slow
// mobile link every extra request delays the page. Nothing here may import zod or admin code.
const PUBLIC_SHARED =
  /\/app\/(?:lib\/(?:domain-name|money|seo|search|response-window|host|inquiry|offer-floor|test-card|categories|legal-pages)\.ts|components\/(?:ui|icons|domain-name)\.tsx|components\/(?:use-live-fee|nonce)\.ts)$/;

const SERVER_PACKAGES_LOADED = [
  "react",
  "react-dom",
  "react-router",
  "@react-router/express",
  "@react-router/node",
  "better-sqlite3",
  "pg",
  "pino",
];

export default defineConfig(({ isSsrBuild, command }) => ({
  plugins: [tailwindcss(), reactRouter()],
  // The server build's entry is the app's request handler (server/app.ts), which imports the routes.
  environments: { ssr: { build: { rollupOptions: { input: "./server/app.ts" } } } },
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
  ssr:
    command === "build"
      ? {
          // The server build carries its packages (express, kysely, stripe, zod...): a start then reads one
          // file instead of about a thousand, 0.9 s -> 0.6 s. Loaded from node_modules: React and React Router
          // (as in development), the native and worker-thread ones (better-sqlite3, pg, pino).
          noExternal: true,
          external: SERVER_PACKAGES_LOADED,
        }
      : { external: ["better-sqlite3"] },
}));
