import { signInAdmin } from "../support/admin";
import { expect, expectNoA11yViolations, test } from "../support/fixtures";

test("the admin sets the response window in Settings", async ({ page, app }) => {
  await signInAdmin(page);
  const settings = page.getByRole("region", { name: "Settings" });
  const input = settings.getByLabel("Response window (days)");
  await expect(input).toHaveAttribute("min", "1");
  await expect(input).toHaveAttribute("max", "60");
  const days = String(10 + (Date.now() % 40));
  await input.fill(days);
  await settings.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("status")).toHaveText("Response window updated.");
  await expect(page.getByRole("region", { name: "Settings" }).getByLabel("Response window (days)")).toHaveValue(days);
  const stored = app.db().prepare("SELECT value FROM settings WHERE key = 'response_window_days'").get() as {
    value: string;
  };
  expect(stored.value).toBe(days);
  await expectNoA11yViolations(page);

  // The browser's own check stops an out-of-range value before it is sent: the click posts nothing (a form
  // sent would have made its request by the time the click returns) and the field says why.
  const posts: string[] = [];
  page.on("request", (request) => void (request.method() === "POST" && posts.push(request.url())));
  const field = page.getByRole("region", { name: "Settings" }).getByLabel("Response window (days)");
  await field.fill("61");
  await page.getByRole("region", { name: "Settings" }).getByRole("button", { name: "Save", exact: true }).click();
  expect(await field.evaluate((input: HTMLInputElement) => input.validity.rangeOverflow)).toBe(true);
  expect(posts).toEqual([]);
  expect(
    (app.db().prepare("SELECT value FROM settings WHERE key = 'response_window_days'").get() as { value: string })
      .value,
  ).toBe(days);
});
