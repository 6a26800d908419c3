// `npm start` builds first when there is no build or the sources are newer than it.
import { execSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const buildEntry = "build/server/index.js";

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

const sources = ["app", "db", "public"].filter(existsSync);
const stale =
  !existsSync(buildEntry) ||
  Math.max(...sources.map(newestMtime)) > statSync(buildEntry).mtimeMs;

if (stale) {
  console.log("Building the app (first start or changed sources)...");
  execSync("npx react-router build", { stdio: "inherit" });
}
