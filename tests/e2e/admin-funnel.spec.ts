import { signInAdmin } from "../support/admin";
import { insertDomain, uniqueDomainName } from "../support/data";
import { expect, expectNoA11yViolations, test } from "../support/fixtures";

test("the admin sorts by views, opens a domain's funnel and sets its minimum offer", async ({ page, app, request }) => {
  const name = uniqueDomainName("funnel");
  const id = insertDomain(app.db(), { name, priceCents: 4_200_000 });
  const short = name.replace(/\.com$/, "");
  // Real visits to the public page (a browser's user agent; Playwright's request context sends one).
  const visits = 3;
  for (let i = 0; i < visits; i++)
    expect(
      (
        await request.get(`/domain/${short}`, {
          headers: { "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) Firefox/132.0" },
        })
      ).ok(),
    ).toBe(true);
  await expect
    .poll(
      () =>
        (
          app.db().prepare("SELECT views FROM domain_view_totals WHERE domain_id = ?").get(id) as
            { views: number } | undefined
        )?.views ?? 0,
      { timeout: 10_000 },
    )
    .toBeGreaterThanOrEqual(visits);

  await signInAdmin(page);
  await page.getByRole("columnheader", { name: "Views" }).getByRole("link").click();
  await expect(page).toHaveURL(/sort=views-desc/);
  await expect(page.getByLabel("Sort by")).toHaveValue("views-desc");
  const detailLink = page.getByRole("link", { name: `${visits} views, funnel and minimum offer of ${name}` });
  await detailLink.click();

  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page.locator('[data-stat="Page views"]')).toHaveText(String(visits));
  await expect(page.locator('[data-stat="Inquiries started"]')).toHaveText("0");
  await expect(page.getByRole("img", { name: new RegExp(`Page views per day .*: ${visits} in total`) })).toBeVisible();
  await expectNoA11yViolations(page);

  await page.getByLabel("Minimum offer (USD)").fill("25000");
  await page.getByRole("button", { name: "Save minimum" }).click();
  await expect(page.getByRole("status")).toHaveText("Minimum offer saved.");
  await expect(page.getByLabel("Minimum offer (USD)")).toHaveValue("25000.00");
  expect(app.db().prepare("SELECT min_offer_cents FROM domains WHERE id = ?").get(id)).toEqual({
    min_offer_cents: 2_500_000,
  });

  await page.getByLabel("Minimum offer (USD)").fill("");
  await page.getByRole("button", { name: "Save minimum" }).click();
  await expect(page.getByRole("status")).toHaveText("Minimum offer removed.");
  await expect(page.getByLabel("Minimum offer (USD)")).toHaveValue("");
  expect(app.db().prepare("SELECT min_offer_cents FROM domains WHERE id = ?").get(id)).toEqual({
    min_offer_cents: null,
  });
});
