// `npm start` builds first when there is no build or the sources are newer than it.
import { execSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const builtFiles = ["build/server/index.js"];

function newestMtime(entry) {
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const child of readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

const sources = ["app", "db", "public", "server", "vite.config.ts", "react-router.config.ts"].filter(existsSync);
const stale =
  !builtFiles.every(existsSync) ||
  Math.max(...sources.map(newestMtime)) > Math.min(...builtFiles.map((file) => statSync(file).mtimeMs));

if (stale) {
  console.log("Building the app (first start or changed sources)...");
  execSync("npm run build", { stdio: "inherit" });
}
