// server.ts is bundled apart from the React Router build (scripts/build-server.mjs): a module it imports
// directly is a second copy, and a second copy of a module with state (env, the database, the logger,
// a cache, a context key) would not be the one the routes use. This bundles server.ts as the build does
// and checks every module of ours in it.
import { build } from "esbuild";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
// @ts-expect-error a plain .mjs script without types
import { serverBundleOptions } from "../../scripts/build-server.mjs";

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** Why a module's source holds state of its own, or null. */
function stateIn(source: string): string | null {
  const checks: Array<[RegExp, string]> = [
    [/^(?:export\s+)?(?:let|var)\s/m, "a top-level let/var"],
    [
      /^(?:export\s+)?const\s+\w+(?::[^=]+)?\s*=\s*new\s+(?:Map|Set|WeakMap|WeakSet)\b[^(]*\(\s*\)/m,
      "an empty Map/Set filled at run time",
    ],
    [/\bcreateContext\s*[<(]/, "a React Router context key"],
    [/\bprocess\.env\b/, "reads process.env (env.server.ts parses it once)"],
    [/\bfrom\s+["'](?:pino|better-sqlite3|pg|kysely)["']/, "a logger or database client"],
  ];
  for (const [pattern, reason] of checks) if (pattern.test(source)) return reason;
  return null;
}

/** Our modules in a bundle of `entry` made with the server build's options, and the state each holds. */
async function bundledModules(entry: string): Promise<Array<{ file: string; state: string | null }>> {
  const result = await build({
    ...serverBundleOptions,
    entryPoints: [entry],
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  return Object.keys(result.metafile!.inputs)
    .filter((file) => !file.includes("node_modules"))
    .map((file) => ({ file, state: stateIn(readFileSync(path.resolve(projectRoot, file), "utf8")) }));
}

describe("the server bundle's boundary", () => {
  it("server.ts's direct imports reach no module with state", async () => {
    const modules = await bundledModules(path.join(projectRoot, "server.ts"));
    const ours = modules.filter(({ file }) => file !== "server.ts" && file !== "server-env.ts");
    expect(ours.map(({ file }) => file).sort()).toEqual(["app/server/http/proxy.server.ts"]);
    expect(ours.filter(({ state }) => state !== null)).toEqual([]);
  });

  it("finds the state a module would bring (the check can fail)", async () => {
    const modules = await bundledModules(path.join(projectRoot, "app/server/http/fee-stream.server.ts"));
    const stateful = Object.fromEntries(modules.filter(({ state }) => state).map(({ file, state }) => [file, state]));
    expect(stateful["app/server/http/fee-stream.server.ts"]).toBe("a top-level let/var");
    expect(stateful["app/server/runtime/env.server.ts"]).toBeDefined();
    expect(stateful["app/server/runtime/log.server.ts"]).toBeDefined();
  });

  it("server.ts takes the app's entry as a type only", () => {
    const source = readFileSync(path.join(projectRoot, "server.ts"), "utf8");
    const entryImports = [...source.matchAll(/^import\s+(type\s+)?[^;]*?from\s+["']\.\/app\/entry\.server["']/gm)];
    expect(entryImports.length).toBeGreaterThan(0);
    for (const match of entryImports) expect(match[1], match[0]).toBeDefined();
    expect(source).not.toMatch(/\bas unknown as\b/);
  });
});
