// Builds server.ts (the HTTP server around the React Router build) into build/server.js, so production
// runs `node build/server.js`: no tsx, no TypeScript, no build tools at run time. Packages stay imports
// from node_modules (the production dependencies); our own TypeScript modules are bundled in.
import { build } from "esbuild";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * server.ts is bundled apart from the app: any module it imports directly is a second copy, beside the
 * one in the React Router build. So it imports the app's entry (app/entry.server.tsx, `serverApp`) as a
 * type only, and its other imports must hold no state: tests/unit/server-boundary.test.ts bundles it
 * with these options and fails when one does.
 */
export const serverBundleOptions = {
  entryPoints: [path.join(root, "server.ts")],
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  logLevel: "warning",
};

export async function buildServerEntry() {
  await build({ ...serverBundleOptions, outfile: path.join(root, "build/server-main.js") });
  // A bundle's package imports are evaluated before any of its own code, so server-env.ts would set
  // NODE_ENV after React has picked its development build: the entry sets it, then loads the bundle.
  writeFileSync(
    path.join(root, "build/server.js"),
    '// Built by scripts/build-server.mjs.\nif (!process.env.NODE_ENV) process.env.NODE_ENV = "production";\nawait import("./server-main.js");\n',
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await buildServerEntry();
