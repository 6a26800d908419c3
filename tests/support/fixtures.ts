import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Locator, type Page } from "@playwright/test";
import { TEST_ADMIN } from "./admin";
import { removeDataDir, startAppServer, type AppServer } from "./app-server";

type WorkerFixtures = { app: AppServer; appEnv: Record<string, string> };
type TestFixtures = { javaScriptOn: boolean };

/**
 * Each Playwright worker gets its own production server and SQLite file, so tests that change the
 * fee or the portfolio never disturb another worker.
 */
export const test = base.extend<TestFixtures, WorkerFixtures>({
  /** Extra environment for the worker's server: `test.use({ appEnv: { ... } })` in a spec file. */
  appEnv: [{}, { scope: "worker", option: true }],
  app: [
    async ({ appEnv }, use) => {
      const server = await startAppServer({ env: { ...TEST_ADMIN_ENV, ...appEnv } });
      await use(server);
      await server.stop();
      removeDataDir(server);
    },
    { scope: "worker" },
  ],
  baseURL: async ({ app }, use) => use(app.url),
  javaScriptOn: async ({ javaScriptEnabled }, use) => use(javaScriptEnabled !== false),
});

export { expect };

export { TEST_ADMIN } from "./admin";
const TEST_ADMIN_ENV = { ADMIN_EMAIL: TEST_ADMIN.email, ADMIN_PASSWORD: TEST_ADMIN.password };

/**
 * Fails on any axe violation, listing each rule and the elements it found. axe runs inside the page,
 * so for a JavaScript-off page it checks the same URL in a context whose own scripts are blocked, with
 * the page's cookies (a signed-in page is checked as the person sees it, not as the sign-in form).
 */
export async function expectNoA11yViolations(page: Page): Promise<void> {
  if (test.info().project.use.javaScriptEnabled !== false) return checkWithAxe(page);
  const browser = page.context().browser()!;
  const checker = await browser.newContext({
    javaScriptEnabled: true,
    storageState: await page.context().storageState(),
  });
  try {
    const checkPage = await checker.newPage();
    await checkPage.route("**/*.js", (route) => route.abort());
    await checkPage.goto(page.url());
    await checkWithAxe(checkPage);
  } finally {
    await checker.close();
  }
}

/**
 * Legacy mode runs axe in the page itself. The default runs each frame's part, then opens a blank page to
 * put them together: twice the time, for cross-origin frames, which the tested pages do not have.
 */
async function checkWithAxe(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).setLegacyMode(true).analyze();
  const summary = results.violations.map(
    (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`,
  );
  expect(summary, "accessibility violations").toEqual([]);
}

/** A Tailwind theme colour as the browser computes it ("red-400" -> the value of --color-red-400). */
export function themeColor(page: Page, name: string): Promise<string> {
  return page.evaluate((variable) => {
    const probe = document.createElement("span");
    probe.style.color = `var(${variable})`;
    document.body.append(probe);
    const color = getComputedStyle(probe).color;
    probe.remove();
    return color;
  }, `--color-${name}`);
}

/** An element's rendered border colour (its top edge), to compare with themeColor. */
export function borderColor(element: Locator): Promise<string> {
  return element.evaluate((node) => getComputedStyle(node).borderTopColor);
}
