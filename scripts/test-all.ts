// `npm test`: every stage of the suite in order (the npm scripts named below), stopping at the first that
// fails with its exit code. At the end, passed or not, a table of each stage's seconds and the total, so
// a slow stage shows without a stopwatch.
import { spawnSync } from "node:child_process";

const STAGES = [
  "lint",
  "docs:check",
  "build",
  "test:unit",
  "test:in-process",
  "test:integration:both",
  "test:e2e",
] as const;

interface StageResult {
  stage: string;
  seconds: number;
  outcome: "passed" | "failed" | "not run";
}

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const results: StageResult[] = [];
let exitCode = 0;
const started = performance.now();

for (const stage of STAGES) {
  if (exitCode !== 0) {
    results.push({ stage, seconds: 0, outcome: "not run" });
    continue;
  }
  const stageStarted = performance.now();
  const run = spawnSync(npm, ["run", stage], { stdio: "inherit" });
  const seconds = (performance.now() - stageStarted) / 1000;
  // A stage killed by a signal has no status: fail as a shell would (128 + the signal's number).
  const code = run.status ?? (run.signal ? 128 + signalNumber(run.signal) : 1);
  results.push({ stage, seconds, outcome: code === 0 ? "passed" : "failed" });
  if (code !== 0) exitCode = code;
}

printTable(results, (performance.now() - started) / 1000);
process.exit(exitCode);

function signalNumber(signal: NodeJS.Signals): number {
  return ({ SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 } as Record<string, number>)[signal] ?? 0;
}

function printTable(rows: StageResult[], totalSeconds: number): void {
  const width = Math.max(...rows.map((row) => row.stage.length), "total".length);
  const line = (stage: string, seconds: string, outcome: string) =>
    `${stage.padEnd(width)}  ${seconds.padStart(8)}  ${outcome}`;
  const lines = [
    "",
    line("stage", "seconds", ""),
    ...rows.map((row) => line(row.stage, row.outcome === "not run" ? "-" : row.seconds.toFixed(1), row.outcome)),
    line("total", totalSeconds.toFixed(1), exitCode === 0 ? "passed" : `failed (exit code ${exitCode})`),
  ];
  console.log(lines.join("\n"));
}
