import { signInAdmin } from "../support/admin";
import { insertDomain } from "../support/data";
import { expect, expectNoA11yViolations, test } from "../support/fixtures";

// Issue 24 items 2 and 3: the admin gives names categories and a pitch; buyers reach a category's page from a name's page
// and filter the home page by it.
test("categories and pitch: given in the Add Domain dialog and the edit form, browsed from a domain page", async ({
  page,
  app,
}) => {
  const tag = `cx${Date.now().toString(36).replace(/\d/g, "")}${test.info().project.name === "js" ? "j" : "n"}`;
  const name = `${tag}one.com`;
  await signInAdmin(page);
  await page.getByRole("link", { name: "Add Domain" }).click();
  const dialog = page.getByRole("dialog", { name: "Add Domain" });
  await dialog.getByLabel("Domain name").fill(name);
  await dialog.getByLabel("Asking price").fill("4321");
  await dialog.getByLabel("Tracking ID (username)").fill("seller");
  await dialog.getByLabel("Owner email").fill("owner@example.test");
  await dialog.getByLabel("Categories (optional)").fill(`${tag} Travel | Short`);
  await dialog.getByLabel("Pitch (optional)").fill(`Pack "light" & go <far> ✈`);
  await dialog.getByRole("button", { name: "Add Domain" }).click();
  await expect(page.getByRole("status")).toHaveText("Domain added.");

  // A second name gets the category in its edit form.
  const second = `${tag}two.io`;
  const id = insertDomain(app.db(), { name: second, priceCents: 100_00 });
  await page.goto(`/admin/domains/${id}`);
  await page.getByLabel("Categories").fill(`${tag} Travel`);
  await page.getByRole("button", { name: "Save listing" }).click();
  await expect(page.getByText("Listing saved.")).toBeVisible();
  await expect(page.getByLabel("Categories")).toHaveValue(`${tag} Travel`);

  await page.getByLabel("Pitch").fill("Two & more");
  await page.getByRole("button", { name: "Save listing" }).click();
  await expect(page.getByLabel("Pitch")).toHaveValue("Two & more");

  await page.goto(`/domain/${tag}one`);
  await expect(page.getByText(`Pack "light" & go <far> ✈`)).toBeVisible();
  // The name sharing its category comes first among "More names like this".
  const similar = page.getByRole("region", { name: "More names like this" });
  await expect(similar.getByRole("link").first()).toContainText(second);
  await expectNoA11yViolations(page);
  await page
    .getByRole("navigation", { name: "Categories" })
    .getByRole("link", { name: `${tag} Travel` })
    .click();
  await expect(page).toHaveURL(new RegExp(`/category/${tag}-travel$`));
  await expect(page.getByRole("heading", { level: 1, name: `${tag} Travel domains for sale` })).toBeVisible();
  await expect(page.getByText(`2 names in ${tag} Travel.`)).toBeVisible();
  await expect(page.getByRole("link", { name: new RegExp(second.replace(".", "\\.")) })).toBeVisible();
  await expectNoA11yViolations(page);

  await page.getByRole("link", { name: "Filter and sort them" }).click();
  await expect(page.getByLabel("Category")).toHaveValue(`${tag}-travel`);
  await expect(page.getByText("2 names", { exact: true })).toBeVisible();
  await page.getByLabel("Sort by").selectOption({ label: "Price: high to low" });
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/sort=price-desc/);
  await expect(page.getByRole("link", { name: /Guiding Price/ }).first()).toContainText(name);
});
