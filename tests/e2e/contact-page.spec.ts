import { insertDomain, uniqueDomainName } from "../support/data";
import { expect, expectNoA11yViolations, test } from "../support/fixtures";

// Issue #26 item 8: /contact/{domain} names the domain and links to its inquiry form. Issue #35: a name not
// listed keeps the spec's static page, with status 404.

test("the contact page names the domain and leads to its inquiry form", async ({ page, app }) => {
  const name = uniqueDomainName("contact");
  insertDomain(app.db(), { name, priceCents: 250_000 });
  const short = name.replace(/\.com$/, "");
  const response = await page.goto(`/contact/${short}`);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1, name: "Payment Required" })).toBeVisible();
  await expect(page.getByText(`To contact the owner of ${name}`)).toBeVisible();
  // The spec's buttons stay.
  await expect(page.getByRole("link", { name: "Browse Domains" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to Home" })).toBeVisible();
  await expect(page.getByRole("link", { name: "See the domain's page" })).toHaveAttribute("href", `/domain/${short}`);
  await expectNoA11yViolations(page);
  await page.getByRole("link", { name: "Send an inquiry" }).click();
  await expect(page).toHaveURL(`/payment/${short}`);
  await expect(page.getByRole("heading", { level: 1, name: "Domain Inquiry" })).toBeVisible();
  await expect(page.getByText(`Contact the owner of ${name}`)).toBeVisible();
});

test("the contact page of a domain not listed is the static page, with status 404", async ({ page }) => {
  const response = await page.goto(`/contact/${uniqueDomainName("unlisted").replace(/\.com$/, "")}`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Payment Required" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Browse Domains" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to Home" })).toBeVisible();
  await expect(page.getByText("Secure payments processed via Stripe")).toBeVisible();
  await expect(page.getByRole("link", { name: "Send an inquiry" })).toHaveCount(0);
  await expectNoA11yViolations(page);
});
