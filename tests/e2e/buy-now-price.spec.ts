import { TEXT } from "../../app/lib/admin-forms";
import { signInAdmin } from "../support/admin";
import { uniqueDomainName } from "../support/data";
import { expect, expectNoA11yViolations, test } from "../support/fixtures";

// Issue 37 item 1: the admin gives a name a "Buy now price" in the Add Domain dialog and changes it on the
// name's own page; with JavaScript and without.
test("the admin sets a buy now price when adding a name, changes it on its page and sees it kept", async ({
  page,
  app,
}) => {
  const name = uniqueDomainName("buynow");
  const buyNowCents = () =>
    (
      app.db().prepare("SELECT buy_now_cents FROM domains WHERE domain_name = ?").get(name) as
        { buy_now_cents: number | null } | undefined
    )?.buy_now_cents;

  await signInAdmin(page);
  await page.getByRole("link", { name: "Add Domain" }).click();
  const dialog = page.getByRole("dialog", { name: "Add Domain" });
  await dialog.getByLabel("Domain name").fill(name);
  await dialog.getByLabel("Asking price").fill("15000");
  await dialog.getByLabel("Buy now price").fill("12500");
  await dialog.getByLabel("Tracking ID (username)").fill("buy-now-seller");
  await dialog.getByLabel("Owner email").fill("owner@example.test");
  await dialog.getByRole("button", { name: "Add Domain" }).click();
  await expect(page.getByRole("status")).toHaveText("Domain added.");
  expect(buyNowCents()).toBe(1_250_000);

  await page.getByRole("link", { name: `0 views, funnel and minimum offer of ${name}` }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  const section = page.getByRole("region", { name: "Buy now price" });
  const field = section.getByLabel("Buy now price (USD)");
  await expect(field).toHaveValue("12500.00");
  await expectNoA11yViolations(page);

  await field.fill("9999.5");
  await section.getByRole("button", { name: "Save buy now price" }).click();
  await expect(page.getByRole("status")).toHaveText("Buy now price saved.");
  await page.reload();
  await expect(field).toHaveValue("9999.50");
  expect(buyNowCents()).toBe(999_950);

  // Over $100,000,000: refused by the server with its message, the typed amount kept, the price unchanged.
  await field.fill("100000001");
  await section.getByRole("button", { name: "Save buy now price" }).click();
  await expect(section.getByRole("alert")).toHaveText(TEXT.buyNowTooLarge);
  await expect(field).toHaveValue("100000001");
  expect(buyNowCents()).toBe(999_950);

  await field.fill("");
  await section.getByRole("button", { name: "Save buy now price" }).click();
  await expect(page.getByRole("status")).toHaveText("Buy now price removed.");
  await expect(field).toHaveValue("");
  expect(buyNowCents()).toBeNull();
});
