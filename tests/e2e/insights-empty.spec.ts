import { signInAdmin } from "../support/admin";
import { expect, expectNoA11yViolations, test } from "../support/fixtures";

// /admin/insights on a site with no activity yet (issue 25 item 3): a worker of its own (another option
// value, so a fresh database with no views and no fees), with JavaScript on and off.
test.use({ appEnv: { CREDIT_CHOICE_DAYS: "7" } });

test("each insight says there is nothing yet, and anyone signed out is sent to the sign-in", async ({ page }) => {
  await page.goto("/admin/insights");
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByText("Fees received")).toHaveCount(0);

  await page.setViewportSize({ width: 390, height: 900 });
  await signInAdmin(page);
  await page.goto("/admin/insights");
  await expect(page.getByText("No fees in the last 12 months")).toBeVisible();
  await expect(page.locator('[data-insights-empty="activity"]')).toHaveText("No views in the last 90 days");
  await expect(page.locator('[data-insights-empty="most-viewed"]')).toHaveText("No views in the last 90 days");
  await expect(page.locator("svg[role='img']")).toHaveCount(0);
  await expectNoA11yViolations(page);
});
