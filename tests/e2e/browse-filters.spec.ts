import { insertRows } from "../support/data";
import { expect, expectNoA11yViolations, test } from "../support/fixtures";

// Issue 24: the home page's filters and sort, with JavaScript on and off, on a phone and on a desktop.
const letters = (i: number) => `${String.fromCharCode(97 + (i % 26))}${i >= 26 ? "z" : ""}`;

function seed(app: { db: () => import("better-sqlite3").Database }, tag: string) {
  const at = new Date().toISOString();
  const row = (name: string, dollars: number) => ({
    domain_name: name,
    asking_price_cents: dollars * 100,
    tracking_id: "t",
    owner_email: "",
    created_at: at,
    updated_at: at,
  });
  insertRows(app.db(), "domains", [
    // 30 .io names without digits at $100, $200, ... $3,000; three with digits; three .com names.
    ...Array.from({ length: 30 }, (_, i) => row(`${tag}x${letters(i)}.io`, (i + 1) * 100)),
    ...Array.from({ length: 3 }, (_, i) => row(`${tag}9${letters(i)}.io`, 5000)),
    ...Array.from({ length: 3 }, (_, i) => row(`${tag}c${letters(i)}.com`, 400)),
  ]);
}

async function expectNoSideways(page: import("@playwright/test").Page, width: number) {
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth, `the page is ${scrollWidth}px wide`).toBeLessThanOrEqual(width);
}

for (const viewport of [
  { width: 360, height: 780 },
  { width: 1280, height: 900 },
]) {
  test.describe(`${viewport.width} px wide`, () => {
    test.use({ viewport });

    test("filter and sort the list, page through it with the filters kept, then clear them", async ({ page, app }) => {
      const tag = `fl${Date.now().toString(36).replace(/\d/g, "")}${viewport.width === 360 ? "p" : "d"}`;
      seed(app, tag);
      await page.goto("/");
      await page.getByRole("searchbox", { name: "Search domains" }).fill(tag);
      await page.getByLabel("Extension").selectOption("io");
      await page.getByLabel("Min price").fill("300");
      await page.getByLabel("No digits").check();
      await page.getByLabel("Sort by").selectOption({ label: "Price: low to high" });
      await expectNoSideways(page, viewport.width);
      await page.getByRole("button", { name: "Search" }).click();

      await expect(page).toHaveURL(/sort=price-asc/);
      const params = new URL(page.url()).searchParams;
      expect([params.get("q"), params.get("ext"), params.get("min"), params.get("nodigit")]).toEqual([
        tag,
        "io",
        "300",
        "1",
      ]);
      await expect(page.getByText(`28 names matching "${tag}"`)).toBeVisible();
      const cards = page
        .getByRole("list")
        .filter({ has: page.getByText("Guiding Price").first() })
        .getByRole("link");
      await expect(cards).toHaveCount(24);
      await expect(cards.first()).toContainText(`${tag}xc.io`);
      await expect(cards.first()).toContainText("$300");
      await expect(page.getByLabel("Extension")).toHaveValue("io");
      await expect(page.getByLabel("Min price")).toHaveValue("300");
      await expect(page.getByLabel("No digits")).toBeChecked();
      await expect(page.getByLabel("Sort by")).toHaveValue("price-asc");
      await expectNoSideways(page, viewport.width);
      await expectNoA11yViolations(page);

      await page.getByRole("link", { name: "Next" }).click();
      await expect(page).toHaveURL(/page=2/);
      await expect(page).toHaveURL(/nodigit=1/);
      await expect(page.getByText("Page 2 of 2")).toBeVisible();
      await expect(cards).toHaveCount(4);
      await expect(cards.last()).toContainText(`${tag}xdz.io`);

      // A sort from high to low reverses the same names.
      await page.getByLabel("Sort by").selectOption({ label: "Price: high to low" });
      await page.getByRole("button", { name: "Search" }).click();
      await expect(page).toHaveURL(/sort=price-desc/);
      await expect(page).not.toHaveURL(/page=2/);
      await expect(cards.first()).toContainText(`${tag}xdz.io`);

      await page.getByRole("link", { name: "Clear filters" }).click();
      await expect(page).toHaveURL(/\/#domains$/);
      await expect(page.getByRole("searchbox", { name: "Search domains" })).toHaveValue("");
      await expect(page.getByLabel("Extension")).toHaveValue("");
      await expect(page.getByLabel("No digits")).not.toBeChecked();
    });
  });
}

test("a bad value in a shared link is ignored with a note", async ({ page, app }) => {
  const tag = `fb${Date.now().toString(36).replace(/\d/g, "")}`;
  seed(app, tag);
  await page.goto(`/?q=${tag}&min=abc&ext=nope`);
  await expect(page.getByText('"abc" is not a usable min price, so it was ignored.')).toBeVisible();
  await expect(page.getByText('There is no extension ".nope" here, so it was ignored.')).toBeVisible();
  await expect(page.getByText(`36 names matching "${tag}"`)).toBeVisible();
});
