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
    // `npm run dev`: Vite scans the routes for dependencies at start, so a first visit does not find new
    // ones and reload the page.
    unstable_optimizeDeps: true,
  },
} satisfies Config;
