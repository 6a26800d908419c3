import { signInAdmin } from "../support/admin";
import { paidBuyNow } from "../support/deals";
import { expect, expectNoA11yViolations, test } from "../support/fixtures";
import { mailAbout } from "../support/mail-files";
import { linkIn } from "../support/refund-promise";

// The admin's Deals page (issue 37 item 5), with JavaScript on and off: a name bought now, paid and
// completed on the owner's and the buyer's deal pages is owed to its owner until "Mark paid out"; a
// second paid deal is refunded with "Refund deal".
test("the admin pays out a completed sale and refunds a paid deal", async ({ page, app }, testInfo) => {
  const owner = `deals-${process.pid}-${Date.now()}-${testInfo.project.name}@owners.example`;
  const sold = await paidBuyNow(app, { ownerEmail: owner, buyNowCents: 1_250_000, prefix: "paidout" });
  const toRefund = await paidBuyNow(app, { ownerEmail: owner, buyNowCents: 640_000, prefix: "refunded" });

  // The owner sends the code from the email's link; the buyer confirms: the sale is completed.
  await page.goto(linkIn(await mailAbout(app, "deal_paid_owner", sold.name), "/deal/"));
  await page.getByLabel("Authorization code").fill("EPP-admin-42");
  await page.getByRole("button", { name: "Send transfer details" }).click();
  await expect(page.getByRole("status")).toHaveText("The transfer details were sent to the buyer.");
  await page.goto(sold.buyerPage);
  await page.getByRole("button", { name: "I have received the domain" }).click();
  await expect(page.locator("[data-deal-status]")).toHaveText("Completed");

  await signInAdmin(page);
  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Deals" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Deals" })).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/deals$/);
  const row = (name: string) => page.getByRole("row").filter({ hasText: name });
  await expect(row(sold.name)).toContainText("$12,500");
  await expect(row(sold.name)).toContainText("Completed");
  await expect(row(toRefund.name)).toContainText("Paid: waiting for the transfer details");
  await expectNoA11yViolations(page);

  // Owed to the owner: the completed sale only, until marked paid out.
  const owed = page.getByRole("region", { name: "Owed to owners" });
  const owedLine = owed.getByRole("listitem").filter({ hasText: owner });
  await expect(owedLine).toContainText("$12,500 for 1 sale");
  await owedLine.getByRole("button", { name: "Mark paid out" }).click();
  await expect(page.getByRole("status")).toHaveText("Marked paid out.");
  await expect(owed.getByRole("listitem").filter({ hasText: owner })).toHaveCount(0);
  await expect(row(sold.name)).toContainText("Paid out");

  // The paid deal is refunded in full and the name is back on sale.
  await row(toRefund.name).getByRole("button", { name: "Refund deal" }).click();
  await expect(page.getByRole("status")).toHaveText("The deal was refunded in full; the name is back on sale.");
  await expect(row(toRefund.name)).toContainText("Refunded");
  await expect(row(toRefund.name).getByRole("button", { name: "Refund deal" })).toHaveCount(0);
  await page.goto(`/domain/${toRefund.short}`);
  await expect(page.getByRole("link", { name: "Buy now for $6,400" })).toBeVisible();
});
