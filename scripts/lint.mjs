// `npm run lint`: ESLint, then Prettier's check, over the tree or the paths given.
// `npm run lint -- --fix`: ESLint's fixes and Prettier's formatting first; then the same checks print what is left.
// Both tools run even when the first fails, so one run lists every problem.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const fix = args.includes("--fix");
const paths = args.filter((arg) => arg !== "--fix");
if (paths.some((arg) => arg.startsWith("-"))) {
  console.error(`lint: unknown option in ${paths.join(" ")} (usage: npm run lint -- [--fix] [paths...])`);
  process.exit(2);
}
const targets = paths.length > 0 ? paths : ["."];

function run(tool, toolArgs, options = {}) {
  const result = spawnSync(path.join(root, "node_modules/.bin", tool), toolArgs, {
    cwd: root,
    stdio: "inherit",
    ...options,
  });
  if (result.error) throw result.error;
  return result;
}

// The caches live in node_modules/.cache and are keyed on file contents, so a checkout or merge never
// leaves a stale result.
const cache = (tool) => ["--cache", "--cache-location", path.join(root, "node_modules/.cache", tool)];
const eslintCache = [...cache("eslint/"), "--cache-strategy", "content"];
const prettierCache = [...cache("prettier/.prettier-cache"), "--cache-strategy", "content"];

if (fix) {
  run("eslint", [...eslintCache, "--fix", ...targets], { stdio: "ignore" });
  // A second pass is sometimes needed: Prettier formats a few long call chains differently the second time.
  // No cache here: it would record the first pass's output as formatted.
  for (let pass = 0; pass < 3; pass++) {
    run("prettier", ["--write", "--log-level", "warn", ...targets]);
    if (run("prettier", ["--list-different", ...targets], { stdio: "ignore" }).status === 0) break;
  }
}
// After the fixes too: Prettier may have moved a line away from its eslint-disable-next-line comment.
const eslintClean = run("eslint", [...eslintCache, ...targets]).status === 0;
const prettierClean = run("prettier", [...prettierCache, "--check", ...targets]).status === 0;
process.exit(eslintClean && prettierClean ? 0 : 1);
