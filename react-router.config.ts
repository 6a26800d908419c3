import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  future: {
    // `npm run dev`: Vite scans the routes for dependencies at start, so a first visit does not find new
    // ones and reload the page.
    unstable_optimizeDeps: true,
  },
} satisfies Config;
