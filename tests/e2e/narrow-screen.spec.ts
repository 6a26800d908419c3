import { insertPaidInquiry, signInAdmin } from "../support/admin";
import { insertDomain } from "../support/data";
import { expect, test } from "../support/fixtures";

// Issue #12 item 7: on a phone (390 px) a long domain or buyer name wraps instead of widening the page.
test.use({ viewport: { width: 390, height: 844 } });

async function expectNoSideways(page: import("@playwright/test").Page, what: string) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, `${what} is ${width}px wide`).toBeLessThanOrEqual(390);
}

test("long names wrap on a 390 px screen: home card, domain page, payment page and inbox", async ({ page, app }) => {
  const label =
    `averyveryverylongdomainnamewithoutanybreaks${Date.now().toString(36)}x${test.info().parallelIndex}`.slice(0, 63);
  const name = `${label}.com`;
  const domainId = insertDomain(app.db(), { name, priceCents: 1_234_500 });
  insertPaidInquiry(app.db(), {
    domainId,
    domainName: name,
    name: `Maximilianbartholomewvonlongname${"x".repeat(40)}`,
    email: `${"y".repeat(50)}@example.test`,
  });

  await page.goto(`/?q=${label}`);
  await expect(page.getByText(name)).toBeVisible();
  await expectNoSideways(page, "home");
  await page.goto(`/domain/${label}`);
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expectNoSideways(page, "domain page");
  await page.goto(`/payment/${label}`);
  await expect(page.getByText(name).first()).toBeVisible();
  await expectNoSideways(page, "payment page");
  await signInAdmin(page);
  await page.goto(`/admin/inquiries?domain=${name}`);
  await expect(page.getByRole("article")).toHaveCount(1);
  await expectNoSideways(page, "inbox");
});
