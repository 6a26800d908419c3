// Global setup of the tests that start the built server (the integration projects, Playwright): builds
// first when there is no build or the sources are newer than it (scripts/ensure-build.mjs, as `npm start`
// does), so one test file runs without an `npm run build` before it. After `npm test`'s build stage, or
// with nothing changed, it only compares file times.
import { execFileSync } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

export default function buildIfStale(): void {
  execFileSync(process.execPath, [path.join(root, "scripts/ensure-build.mjs")], { cwd: root, stdio: "inherit" });
}
