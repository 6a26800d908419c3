import { chromium, type Browser } from "@playwright/test";
import { insertDomain, uniqueDomainName } from "../support/data";
import { expect, expectNoA11yViolations, test } from "../support/fixtures";

/**
 * A browser whose DNS sends the listed domain's name to the test server, so it visits
 * http://{domain}/ exactly as a buyer whose domain points at this server would.
 */
async function browserResolving(names: string[], serverUrl: string, launchOptions: object): Promise<Browser> {
  const target = new URL(serverUrl);
  const rules = names.map((name) => `MAP ${name} ${target.hostname}:${target.port}`).join(", ");
  const base = launchOptions as { args?: string[] };
  return chromium.launch({ ...base, args: [...(base.args ?? []), `--host-resolver-rules=${rules}`] });
}

test("a listed domain's own host shows its for-sale page, and the inquiry link stays on that host", async ({
  app,
  launchOptions,
  javaScriptEnabled,
}) => {
  const name = uniqueDomainName("lander");
  insertDomain(app.db(), { name, priceCents: 1_750_000 });
  const short = name.replace(/\.com$/, "");
  const browser = await browserResolving([name, `www.${name}`], app.url, launchOptions);
  try {
    const context = await browser.newContext({ javaScriptEnabled });
    const page = await context.newPage();
    await page.goto(`http://www.${name}/`);
    await expect(page).toHaveTitle(`${name} is for sale | DomainVault`);
    await expect(page.getByRole("heading", { level: 1, name: `${name} is for sale`, exact: true })).toBeVisible();
    await expect(page.getByRole("heading", { level: 2, name: "How it works" })).toBeVisible();
    await expect(page.getByText("Pay the inquiry fee and send your message.")).toBeVisible();
    await expect(page.getByText("The name is transferred through an escrow service.")).toBeVisible();
    await expect(page.getByText("Guiding Price")).toBeVisible();
    await expect(page.getByText("$17,500")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Direct Communication" })).toBeVisible();
    await expect(page.getByText("Premium Domain Acquisitions")).toHaveCount(0);
    await expectNoA11yViolations(page);
    const startInquiry = page.getByRole("link", { name: /^Start Inquiry \(\$\d/ });
    await expect(startInquiry).toHaveAttribute("href", `/payment/${short}`);
    await expect(startInquiry.locator("xpath=following-sibling::p[1]")).toHaveText("Test mode - no real charge");
    await startInquiry.click();
    await expect(page).toHaveURL(`http://www.${name}/payment/${short}`);
  } finally {
    await browser.close();
  }
});

test("the operator's own host keeps the splash and browse page", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByText("Premium Domain Acquisitions")).toBeVisible();
  // Not a particular demo name: other specs sharing this worker's server add newer domains first.
  await expect(page.getByRole("heading", { name: "Domains for sale" })).toBeVisible();
  await expect(page.getByRole("link", { name: /Guiding Price/ }).first()).toBeVisible();
});
