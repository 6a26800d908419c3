// `npm run lint`: ESLint, then Prettier's check, over the tree or the paths given.
// `npm run lint -- --fix`: ESLint's fixes, then `prettier --write` (what is left is printed, exit code 1).
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

// The caches live in node_modules/.cache and are keyed on file contents, so a checkout or merge never
// leaves a stale result.
const cache = (tool) => ["--cache", "--cache-location", path.join(root, "node_modules/.cache", tool)];
const eslint = [...cache("eslint/"), "--cache-strategy", "content", ...(fix ? ["--fix"] : []), ...targets];
const prettier = [...cache("prettier/.prettier-cache"), "--cache-strategy", "content", fix ? "--write" : "--check"];

function run(tool, toolArgs) {
  const result = spawnSync(path.join(root, "node_modules/.bin", tool), toolArgs, { cwd: root, stdio: "inherit" });
  if (result.error) throw result.error;
  return result.status === 0;
}

const eslintClean = run("eslint", eslint);
// `prettier --write` prints every file it looks at; --log-level warn keeps the list to the ones it changed.
const prettierClean = run("prettier", [...prettier, ...(fix ? ["--log-level", "warn"] : []), ...targets]);
process.exit(eslintClean && prettierClean ? 0 : 1);
