import { insertPaidInquiry, signInAdmin } from "../support/admin";
import { insertDomain, insertRows, uniqueDomainName } from "../support/data";
import { expect, expectNoA11yViolations, test } from "../support/fixtures";

// Portfolio insights at /admin/insights (issue 25 item 3), with JavaScript on and off (projects js and
// no-js), at 390 and 1366 px: reached from the admin's nav, charts with their numbers in tables, axe clean.

const isoDay = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);

for (const width of [390, 1366]) {
  test(`the admin reads the portfolio's insights at ${width} px`, async ({ page, app }, testInfo) => {
    // Far more views than any other test's names in this worker's database, so these two lead the lists.
    const asked = uniqueDomainName("insights-asked");
    const quiet = uniqueDomainName("insights-quiet");
    const askedId = insertDomain(app.db(), { name: asked, priceCents: 900_000 });
    const quietId = insertDomain(app.db(), { name: quiet, priceCents: 640_000 });
    insertRows(app.db(), "domain_daily_views", [
      { domain_id: askedId, day: isoDay(0), views: 40_000 },
      { domain_id: askedId, day: isoDay(10), views: 40_000 },
      { domain_id: quietId, day: isoDay(1), views: 50_000 },
    ]);
    insertRows(app.db(), "domain_view_totals", [
      { domain_id: askedId, views: 80_000 },
      { domain_id: quietId, views: 50_000 },
    ]);
    insertPaidInquiry(app.db(), { domainId: askedId, domainName: asked, amountCents: 4_000 });
    insertPaidInquiry(app.db(), { domainId: askedId, domainName: asked, amountCents: 4_000 });

    await page.setViewportSize({ width, height: 900 });
    await signInAdmin(page);
    await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Insights" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Insights" })).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/insights$/);

    await expect(page.getByRole("img", { name: /^Fees received per month from .* net of refunds/ })).toBeVisible();
    const fees = page.getByRole("table", { name: "Fees per month" });
    await expect(fees.getByRole("row")).toHaveCount(13);
    const thisMonth = new Intl.DateTimeFormat("en-US", { month: "short", year: "numeric", timeZone: "UTC" }).format(
      new Date(),
    );
    // This month received at least these two fees (other tests in this worker may have paid some too).
    const received = await fees
      .getByRole("row", { name: new RegExp(`^${thisMonth}`) })
      .getByRole("cell")
      .first()
      .innerText();
    expect(Number(received.replace(/[$,]/g, ""))).toBeGreaterThanOrEqual(80);

    await expect(page.getByRole("img", { name: /^Views per day from .* paid inquiries\.$/ })).toBeVisible();
    await expect(page.getByRole("table", { name: /^Days with views or paid inquiries/ })).toBeVisible();

    const mostViewed = page.getByRole("table", { name: /^Most viewed names/ });
    const row = (table: typeof mostViewed, name: string) => table.getByRole("row").filter({ hasText: name });
    await expect(row(mostViewed, asked).getByRole("cell")).toHaveText(["80,000", "2", "0.0%"]);
    await expect(row(mostViewed, quiet).getByRole("cell")).toHaveText(["50,000", "0", "0.0%"]);
    const order = await mostViewed.getByRole("row").allInnerTexts();
    const at = (name: string) => order.findIndex((text) => text.includes(name));
    expect(at(asked)).toBeGreaterThan(0);
    expect(at(asked)).toBeLessThan(at(quiet));

    const noInquiry = page.getByRole("table", { name: /^Names with views but no paid inquiry/ });
    await expect(row(noInquiry, quiet).getByRole("cell")).toHaveText(["50,000", "$6,400"]);
    await expect(noInquiry).not.toContainText(asked);

    // Names lead to their domain page in the admin.
    await noInquiry.getByRole("link", { name: quiet }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/domains/${quietId}$`));
    await page.goBack();
    await expect(page.getByRole("heading", { level: 1, name: "Insights" })).toBeVisible();

    // Nothing wider than the screen; the charts' date labels keep a readable size however narrow the chart.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    // Polled: with JavaScript, the page revalidates after going back and a label may be replaced (detached,
    // no computed size) between finding it and reading it.
    await expect
      .poll(
        () =>
          page
            .locator("figure [aria-hidden='true'] span")
            .evaluateAll((spans) =>
              spans.length === 0 ? NaN : Math.min(...spans.map((span) => parseFloat(getComputedStyle(span).fontSize))),
            ),
        { message: "smallest chart label font size in px" },
      )
      .toBeGreaterThanOrEqual(12);
    await testInfo.attach(`insights-${width}px-${testInfo.project.name}.png`, {
      body: await page.screenshot({ fullPage: true }),
      contentType: "image/png",
    });
    await expectNoA11yViolations(page);
  });
}
