// Runs the lighthouse CLI (mobile settings, its default) with the system Chromium, offline.
import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";

const CHROMIUM = process.env.CHROME_PATH ?? "/usr/bin/chromium";
const CHROME_FLAGS =
  "--headless --no-sandbox --disable-background-networking --disable-component-update --disable-sync";
export const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;

export type LighthouseResult =
  | {
      ok: true;
      scores: Record<(typeof CATEGORIES)[number], number>;
      failing: string[];
      metrics: Record<string, string>;
    }
  | { ok: false; reason: string };

export async function runLighthouse(url: string): Promise<LighthouseResult> {
  let cli: string;
  try {
    cli = path.join(path.dirname(createRequire(import.meta.url).resolve("lighthouse/package.json")), "cli/index.js");
  } catch {
    return { ok: false, reason: "the lighthouse package is not installed (npm install)" };
  }
  if (!existsSync(CHROMIUM))
    return { ok: false, reason: `no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROME_PATH)` };
  const report = path.join(tmpdir(), `lighthouse-${process.pid}-${Date.now()}.json`);
  const args = [
    cli,
    url,
    "--output=json",
    `--output-path=${report}`,
    "--quiet",
    "--form-factor=mobile",
    `--only-categories=${CATEGORIES.join(",")}`,
    `--chrome-flags=${CHROME_FLAGS}`,
  ];
  const output = await new Promise<{ code: number | null; text: string }>((resolve) => {
    const child = spawn(process.execPath, args, {
      env: { ...process.env, CHROME_PATH: CHROMIUM },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let text = "";
    child.stdout.on("data", (chunk) => (text += chunk));
    child.stderr.on("data", (chunk) => (text += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 180_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, text });
    });
  });
  if (output.code !== 0 || !existsSync(report))
    return { ok: false, reason: `lighthouse exited with ${output.code}: ${output.text.trim().slice(-400)}` };
  try {
    const lhr = JSON.parse(readFileSync(report, "utf8"));
    if (lhr.runtimeError) return { ok: false, reason: `${lhr.runtimeError.code}: ${lhr.runtimeError.message}` };
    const scores = Object.fromEntries(
      CATEGORIES.map((id) => [id, Math.round((lhr.categories[id]?.score ?? 0) * 100)]),
    ) as Record<(typeof CATEGORIES)[number], number>;
    const failing: string[] = [];
    for (const id of CATEGORIES) {
      for (const ref of lhr.categories[id]?.auditRefs ?? []) {
        const audit = lhr.audits[ref.id];
        if (ref.weight > 0 && audit?.score !== null && audit?.score < 0.9)
          failing.push(`${id}/${ref.id}${audit.displayValue ? ` (${audit.displayValue})` : ""}`);
      }
    }
    const metrics = Object.fromEntries(
      [
        "first-contentful-paint",
        "largest-contentful-paint",
        "total-blocking-time",
        "cumulative-layout-shift",
        "speed-index",
      ].map((id) => [id, String(lhr.audits[id]?.displayValue ?? "?")]),
    );
    return { ok: true, scores, failing, metrics };
  } finally {
    rmSync(report, { force: true });
  }
}
