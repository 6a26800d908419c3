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
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    browserName: "chromium",
    launchOptions: chromiumLaunchOptions,
    trace: "retain-on-failure",
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
