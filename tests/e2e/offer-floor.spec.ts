import { insertDomain, uniqueDomainName } from "../support/data";
import { borderColor, expect, expectNoA11yViolations, test, themeColor } from "../support/fixtures";

const WARNING = "Offers below the owner's minimum are usually declined";

function domainWithFloor(app: { db: () => import("better-sqlite3").Database }, floorCents: number) {
  const name = uniqueDomainName("floor");
  const id = insertDomain(app.db(), { name, priceCents: 3_000_000 });
  app.db().prepare("UPDATE domains SET min_offer_cents = ? WHERE id = ?").run(floorCents, id);
  return { id, name, short: name.replace(/\.com$/, "") };
}

async function fillInquiry(page: import("@playwright/test").Page, offer: string) {
  await page.getByLabel("Full Name").fill("Ada Buyer");
  await page.getByLabel("Email Address").fill("ada@buyer.example");
  await page.getByLabel("Your Offer").fill(offer);
  await page.getByLabel("Message to Owner").fill("I would like to buy this domain.");
}

/** Where the buyer lands once the form step is done: the payment step (JS) or the checkout page (no JS). */
async function expectPaymentStep(page: import("@playwright/test").Page, javaScriptOn: boolean) {
  if (javaScriptOn) await expect(page.getByRole("heading", { name: "Complete Payment" })).toBeVisible();
  else await expect(page.getByRole("heading", { name: "Checkout" })).toBeVisible();
}

test("an offer below the owner's minimum is warned about, and the buyer can continue anyway", async ({
  page,
  app,
  javaScriptOn,
}) => {
  const domain = domainWithFloor(app, 1_500_000);
  await page.goto(`/payment/${domain.short}`);
  await expect(page.getByText(WARNING)).toHaveCount(0);
  await fillInquiry(page, "$9,000");
  await page.getByRole("button", { name: "Continue to Payment" }).click();
  await expect(page.getByRole("alert")).toHaveText(WARNING);
  await expect(page.getByLabel("Your Offer")).toHaveValue("$9,000");
  await expect(page.getByLabel("Full Name")).toHaveValue("Ada Buyer");
  expect(app.db().prepare("SELECT count(*) AS n FROM inquiries WHERE domain_id = ?").get(domain.id)).toEqual({ n: 0 });
  // Issue #26 item 7: a warning, not an error: amber, the offer tied to it but not invalid, and one way on.
  const offer = page.getByLabel("Your Offer");
  await expect(offer).not.toHaveAttribute("aria-invalid");
  await expect(offer).toHaveAccessibleDescription(WARNING);
  const amber = await themeColor(page, "amber-400");
  expect(await borderColor(offer)).toBe(amber);
  const box = page.getByRole("alert").locator("xpath=..");
  // The warning's text in amber, not the errors' red.
  expect(await box.evaluate((element) => getComputedStyle(element).color)).toBe(await themeColor(page, "amber-100"));
  await expect(box).toContainText("Raise your offer above, or send it as it is.");
  await expect(page.getByRole("button", { name: "Continue anyway" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Continue to Payment" })).toHaveCount(0);
  await expectNoA11yViolations(page);
  await page.getByRole("button", { name: "Send anyway" }).click();
  await expectPaymentStep(page, javaScriptOn);
  expect(app.db().prepare("SELECT offer FROM inquiries WHERE domain_id = ?").all(domain.id)).toEqual([
    { offer: "$9,000" },
  ]);
});

test("after the warning the buyer can raise the offer and go on", async ({ page, app, javaScriptOn }) => {
  const domain = domainWithFloor(app, 1_500_000);
  await page.goto(`/payment/${domain.short}`);
  await fillInquiry(page, "9000");
  await page.getByRole("button", { name: "Continue to Payment" }).click();
  await expect(page.getByRole("alert")).toHaveText(WARNING);
  await page.getByLabel("Your Offer").fill("$15,000");
  // With JavaScript a changed offer takes the warning away; without it the one button sends what is typed.
  if (javaScriptOn) {
    await expect(page.getByText(WARNING)).toHaveCount(0);
    await page.getByRole("button", { name: "Continue to Payment" }).click();
  } else {
    await page.getByRole("button", { name: "Send anyway" }).click();
  }
  await expectPaymentStep(page, javaScriptOn);
  expect(app.db().prepare("SELECT offer FROM inquiries WHERE domain_id = ?").all(domain.id)).toEqual([
    { offer: "$15,000" },
  ]);
});
