import { defineConfig } from "@playwright/test";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromiumLaunchOptions } from "./tests/support/chromium";

export default defineConfig({
  testDir: "tests/e2e",
  // Failures' traces and screenshots go to a temporary folder (the report names it), not into the checkout.
  outputDir: path.join(tmpdir(), "domainvault-playwright"),
  // Each worker starts the built server: build first when it is missing or older than the sources.
  globalSetup: "./tests/support/build-setup.ts",
  // The longest specs (every page at three widths, axe on each) take 35-45 s on a quiet 2-core machine
  // and passed only by their timeout under load: a limit for a hung test, not a speed target.
  timeout: 120_000,
  expect: { timeout: 5_000 },
  fullyParallel: true,
  workers: process.env.CI ? 2 : 3,
  retries: 0,
  reporter: "list",
  use: {
    browserName: "chromium",
    launchOptions: chromiumLaunchOptions,
    // Recording a trace costs in every test, failed or not: with its screencast the browser tests took a third
    // longer (83 s against 64 s for buyer-pages and admin-desk), with DOM snapshots only a tenth. A developer
    // keeps the snapshots of a failed test (`npx playwright show-trace` on the file the report names); CI,
    // whose files no one can open afterwards, records none (`--trace on` records all, screencast included).
    trace: process.env.CI ? "off" : { mode: "retain-on-failure", screenshots: false, snapshots: true },
    screenshot: "only-on-failure",
    // The splash page's background drifts (two blurred circles, 60 frames a second): without a GPU each
    // frame is painted in software, about 60% of a core for as long as the page is open. The tests run as a
    // visitor who asks for less motion; buyer-pages.spec.ts checks the drift with motion allowed.
    reducedMotion: "reduce",
  },
  projects: [
    { name: "js", use: { javaScriptEnabled: true } },
    { name: "no-js", use: { javaScriptEnabled: false } },
  ],
});
