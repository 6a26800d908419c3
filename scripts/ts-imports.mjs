// Node runs the TypeScript scripts and `npm run dev`'s server.ts itself (type stripping, Node 24): no tsx.
// The app's imports name modules without their extension (`./env.server`, as Vite resolves them); this
// hook resolves such a relative import to its `.ts`, `.tsx` or `/index.ts` file. Used as
// `node --import=./scripts/ts-imports.mjs scripts/x.ts`.
import { registerHooks } from "node:module";

const SUFFIXES = [".ts", ".tsx", "/index.ts"];

registerHooks({
  resolve(specifier, context, nextResolve) {
    try {
      return nextResolve(specifier, context);
    } catch (error) {
      if (!/^\.\.?\//.test(specifier) || error?.code !== "ERR_MODULE_NOT_FOUND") throw error;
      for (const suffix of SUFFIXES) {
        try {
          return nextResolve(specifier + suffix, context);
        } catch {
          // the next suffix
        }
      }
      throw error;
    }
  },
});
