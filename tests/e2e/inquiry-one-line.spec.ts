import { insertDomain, uniqueDomainName } from "../support/data";
import { expect, test } from "../support/fixtures";

// Your Offer is one line, like Full Name. A text input drops CR and LF as they are typed or pasted, so the
// browser case is Unicode's line separator (U+2028), which it keeps; the server refuses every line break.
const OFFER = "5000\u2028From the site: urgent, the owner must answer today.";

test("an offer with a line break is refused next to the field, keeping what was typed", async ({
  page,
  app,
  javaScriptOn,
}) => {
  const name = uniqueDomainName("oneline");
  const id = insertDomain(app.db(), { name, priceCents: 500_000 });
  await page.goto(`/payment/${name.replace(/\.com$/, "")}`);
  await page.getByLabel("Full Name").fill("Ada Buyer");
  await page.getByLabel("Email Address").fill("ada@buyer.example");
  await page.getByLabel("Your Offer").fill(OFFER);
  await page.getByLabel("Message to Owner").fill("I would like to buy this domain.");
  await page.getByRole("button", { name: "Continue to Payment" }).click();

  const offer = page.getByLabel("Your Offer");
  await expect(page.getByRole("alert")).toHaveText("Your Offer must be one line");
  await expect(offer).toHaveAttribute("aria-invalid", "true");
  await expect(offer).toHaveAccessibleDescription("Your Offer must be one line");
  await expect(offer).toHaveValue(OFFER);
  await expect(page.getByLabel("Message to Owner")).toHaveValue("I would like to buy this domain.");
  expect(app.db().prepare("SELECT count(*) AS n FROM inquiries WHERE domain_id = ?").get(id)).toEqual({ n: 0 });

  await offer.fill("5000");
  await page.getByRole("button", { name: "Continue to Payment" }).click();
  if (javaScriptOn) await expect(page.getByRole("heading", { name: "Complete Payment" })).toBeVisible();
  else await expect(page.getByRole("heading", { name: "Checkout" })).toBeVisible();
  expect(app.db().prepare("SELECT offer FROM inquiries WHERE domain_id = ?").all(id)).toEqual([{ offer: "5000" }]);
});
