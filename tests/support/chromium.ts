import { existsSync } from "node:fs";
import type { LaunchOptions } from "@playwright/test";

// The system's Chromium (no browser download works here). Debian's chromium-headless-shell, the headless-only
// build Playwright itself runs by default, renders the suite in about half the time of the full browser in
// headless mode; the full browser serves when it is missing. CHROMIUM_PATH picks another.
const HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell";

export const chromiumPath =
  process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : "/usr/bin/chromium");

/** No calls out (the network is closed), no GPU, no sandbox as root (Chromium refuses to start). */
export const chromiumArgs = [
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-gpu",
  "--no-first-run",
  ...(process.getuid?.() === 0 ? ["--no-sandbox"] : []),
];

export const chromiumLaunchOptions: LaunchOptions = { executablePath: chromiumPath, args: chromiumArgs };
