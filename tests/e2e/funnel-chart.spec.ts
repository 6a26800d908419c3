import { insertPaidInquiry, signInAdmin } from "../support/admin";
import { insertDomain, insertRows, uniqueDomainName } from "../support/data";
import { expect, expectNoA11yViolations, test } from "../support/fixtures";

// Issue #26 item 3: the funnel's dates keep their size on a phone, an empty funnel says so, the
// started and paid counts are shown, and the daily table lists only days with something in them.

const isoDay = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);

test('a domain nobody has seen shows "No views yet"', async ({ page, app }) => {
  const name = uniqueDomainName("unseen");
  const id = insertDomain(app.db(), { name, priceCents: 100_000 });
  await signInAdmin(page);
  await page.goto(`/admin/domains/${id}`);
  await expect(page.getByText("No views yet")).toBeVisible();
  await expect(page.getByRole("img", { name: /Page views per day/ })).toHaveCount(0);
  await expect(page.getByText("Daily numbers")).toHaveCount(0);
});

test("the funnel counts started and paid inquiries and lists only active days, dates readable at 390 px", async ({
  page,
  app,
}, testInfo) => {
  const name = uniqueDomainName("funnel-days");
  const id = insertDomain(app.db(), { name, priceCents: 100_000 });
  insertRows(app.db(), "domain_daily_views", [
    { domain_id: id, day: isoDay(0), views: 5 },
    { domain_id: id, day: isoDay(3), views: 2 },
  ]);
  insertRows(app.db(), "domain_view_totals", [{ domain_id: id, views: 7 }]);
  insertPaidInquiry(app.db(), { domainId: id, domainName: name });
  // A started, unpaid inquiry of today: counted as started only.
  const pending = insertPaidInquiry(app.db(), { domainId: id, domainName: name });
  app.db().prepare("UPDATE inquiries SET status = 'pending', paid_at = NULL WHERE id = ?").run(pending);

  await page.setViewportSize({ width: 390, height: 844 });
  await signInAdmin(page);
  await page.goto(`/admin/domains/${id}`);
  await expect(page.getByRole("img", { name: /Page views per day .*: 7 in total, at most 5 a day/ })).toBeVisible();
  await expect(page.locator('[data-funnel-count="started"]')).toHaveText("2");
  await expect(page.locator('[data-funnel-count="paid"]')).toHaveText("1");
  const dates = page.locator("[data-funnel-dates] span");
  await expect(dates).toHaveCount(2);
  for (const size of await dates.evaluateAll((spans) =>
    spans.map((span) => parseFloat(getComputedStyle(span).fontSize)),
  ))
    expect(size, "date label font size in px").toBeGreaterThanOrEqual(12);

  await page.getByText("Daily numbers").click();
  const rows = page.locator("details tbody tr");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0).getByRole("cell")).toHaveText(["5", "2", "1"]);
  await expect(rows.nth(1).getByRole("cell")).toHaveText(["2", "0", "0"]);
  await testInfo.attach(`funnel-390px-${testInfo.project.name}.png`, {
    body: await page.screenshot({ fullPage: true }),
    contentType: "image/png",
  });
  await expectNoA11yViolations(page);
});
