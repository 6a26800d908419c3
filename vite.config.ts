import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

// Small modules the public pages share (1-2 KB each) go out as one file, not one request each: on a slow
// mobile link every extra request delays the page. Nothing here may import zod or admin code.
const PUBLIC_SHARED =
  /\/app\/(?:lib\/(?:domain-name|money|seo|search|response-window|host|inquiry|offer-floor|test-card)\.ts|components\/(?:ui|icons)\.tsx|components\/(?:use-live-fee|nonce)\.ts)$/;

export default defineConfig(({ isSsrBuild }) => ({
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
  ssr: { external: ["better-sqlite3"] },
}));
