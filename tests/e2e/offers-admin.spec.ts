import { signInAdmin } from "../support/admin";
import { expect, test } from "../support/fixtures";
import { paidInquiryWithLinks } from "../support/refund-promise";

// The admin answers a buyer's offer from the inbox as the owner, and a deal is cancelled from the deal
// page (issue 37), with JavaScript on and off.
test("the admin counters from the inbox, the buyer accepts, then cancels the deal", async ({ page, app }) => {
  const { domain, email, buyerLink } = await paidInquiryWithLinks(app, "inboxoffer");
  await page.goto(buyerLink);
  await page.getByLabel("Your offer (USD)").fill("3000");
  await page.getByRole("button", { name: "Send offer" }).click();
  await expect(page.getByRole("status")).toHaveText("Your offer was sent.");

  await signInAdmin(page);
  await page.goto(`/admin/inquiries?domain=${domain.short}`);
  const card = page.getByRole("article").filter({ hasText: email });
  await expect(card.getByText("The buyer's offer: $3,000")).toBeVisible();
  await card.getByLabel("Counter-offer (USD)").fill("-5");
  await card.getByRole("button", { name: "Counter" }).click();
  await expect(page.getByRole("alert")).toHaveText("An offer cannot be negative.");
  await expect(page.getByRole("article").filter({ hasText: email }).getByLabel("Counter-offer (USD)")).toHaveValue(
    "-5",
  );
  await page.getByRole("article").filter({ hasText: email }).getByLabel("Counter-offer (USD)").fill("3800");
  await page.getByRole("article").filter({ hasText: email }).getByRole("button", { name: "Counter" }).click();
  await expect(page.getByRole("status").first()).toContainText("Your counter-offer was sent.");

  await page.goto(buyerLink);
  await expect(page.getByText("Counter-offer: $3,800", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Accept offer" }).click();
  await expect(page.getByText("Deal agreed: $3,800")).toBeVisible();
  await page.getByRole("link", { name: "Open the deal's page" }).click();
  await page.getByRole("button", { name: "Cancel deal" }).click();
  await expect(page.getByRole("status")).toHaveText("The deal is cancelled. The name is back on sale.");
  await page.goto(`/domain/${domain.short}`);
  await expect(page.getByText("Under offer")).toHaveCount(0);
});
