import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Browser, type Locator, type Page } from "@playwright/test";
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
  const checkPage = await noScriptChecker(page.context().browser()!);
  await checkPage.context().clearCookies();
  await checkPage.context().addCookies(await page.context().cookies());
  const viewport = page.viewportSize();
  if (viewport) await checkPage.setViewportSize(viewport);
  await checkPage.goto(page.url());
  try {
    await checkWithAxe(checkPage);
  } finally {
    // Left on a blank page: nothing of the checked page (an animation) runs on between checks.
    await checkPage.goto("about:blank");
  }
}

/**
 * One checking page per worker's browser, reused: a context and page made for each check cost about 300 ms
 * more per check (550-830 ms against 230-460 ms here). With scripts blocked the pages it opens write no
 * storage; each check sets the checked page's cookies and width (a check at 390 px is made at 390 px).
 */
const noScriptCheckers = new WeakMap<Browser, Promise<Page>>();
function noScriptChecker(browser: Browser): Promise<Page> {
  let checker = noScriptCheckers.get(browser);
  if (!checker) {
    checker = (async () => {
      const context = await browser.newContext({ javaScriptEnabled: true, reducedMotion: "reduce" });
      await context.route("**/*.js", (route) => route.abort());
      return context.newPage();
    })();
    noScriptCheckers.set(browser, checker);
  }
  return checker;
}

/**
 * Every rule still runs; only the violations are returned element by element (the others with one example
 * each), which is all the check reads: about 40 ms less per check on the splash page's 200 KB of results.
 */
const ONLY_VIOLATIONS_IN_FULL = { resultTypes: ["violations" as const] };

/**
 * Legacy mode runs axe in the page itself. The default runs each frame's part, then opens a blank page to
 * put them together: twice the time, for cross-origin frames, which the tested pages do not have.
 */
async function checkWithAxe(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).setLegacyMode(true).options(ONLY_VIOLATIONS_IN_FULL).analyze();
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
