import type { AppServer } from "../support/app-server";
import { insertDomain, uniqueDomainName } from "../support/data";
import { expect, expectNoA11yViolations, test } from "../support/fixtures";
import { allMail, mailAbout } from "../support/mail-files";
import { linkIn } from "../support/refund-promise";

// Buy now through to "Completed" (issue 37), with the embedded test provider's checkout page, with
// JavaScript on and off: the buyer pays the buy now price, the owner sends the authorization code from the
// email's link, the buyer sees it on their page and confirms, and the name's page says it has been sold.

function domainWithBuyNow(app: AppServer) {
  const name = uniqueDomainName("buynow");
  const id = insertDomain(app.db(), { name, priceCents: 1_500_000, ownerEmail: "owner@example.test" });
  app.db().prepare("UPDATE domains SET buy_now_cents = ? WHERE id = ?").run(1_250_000, id);
  return { id, name, short: name.replace(/\.com$/, "") };
}

test("buy now through to Completed", async ({ page, app }) => {
  const domain = domainWithBuyNow(app);
  await page.goto(`/domain/${domain.short}`);
  await page.getByRole("link", { name: "Buy now for $12,500" }).click();
  await expect(page.getByRole("heading", { level: 1, name: `Buy ${domain.name} now` })).toBeVisible();
  await expectNoA11yViolations(page);

  // A bad email is refused with a message, the name kept.
  await page.getByLabel("Full Name").fill("Ada Buyer");
  await page.getByLabel("Email Address").fill("ada-at-example");
  await page.evaluate(() => document.querySelector("form")?.setAttribute("novalidate", ""));
  await page.getByRole("button", { name: "Pay $12,500" }).click();
  await expect(page.getByRole("alert")).toHaveText("Please enter a valid email address");
  await expect(page.getByLabel("Full Name")).toHaveValue("Ada Buyer");

  const email = `buynow-${domain.id}@buyer.example`;
  await page.getByLabel("Email Address").fill(email);
  await page.getByRole("button", { name: "Pay $12,500" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Checkout" })).toBeVisible();
  await expect(page.getByText(`Purchase of ${domain.name}`)).toBeVisible();
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry").fill("12/40");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: "Pay $12,500" }).click();

  await expect(page.getByRole("heading", { level: 1, name: `Your purchase of ${domain.name}` })).toBeVisible();
  await expect(page.locator("[data-deal-status]")).toHaveText("Paid: waiting for the transfer details");
  await expectNoA11yViolations(page);
  const buyerPage = page.url();

  // The name is sold: its page says so, and the catalog's search no longer lists it.
  await page.goto(`/domain/${domain.short}`);
  await expect(page.getByRole("heading", { level: 1, name: `${domain.name} has been sold` })).toBeVisible();
  await page.goto(`/?q=${domain.short}`);
  await expect(page.getByRole("link", { name: domain.name })).toHaveCount(0);

  // The owner sends the code from the email's link.
  const ownerLink = linkIn(await mailAbout(app, "deal_paid_owner", domain.name), "/deal/");
  await page.goto(ownerLink);
  await expect(page.getByRole("heading", { level: 1, name: `Sale of ${domain.name}` })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  await page.getByLabel("Authorization code").fill("EPP-7xQ!k2");
  await page.getByRole("button", { name: "Send transfer details" }).click();
  await expect(page.getByRole("status")).toHaveText("The transfer details were sent to the buyer.");
  await expect(page.getByText("EPP-7xQ!k2")).toHaveCount(0);

  await page.goto(buyerPage);
  await expect(page.getByText("EPP-7xQ!k2")).toBeVisible();
  await page.getByRole("button", { name: "I have received the domain" }).click();
  await expect(page.getByRole("status")).toHaveText("Thank you: the sale is completed.");
  await expect(page.locator("[data-deal-status]")).toHaveText("Completed");
  for (const mail of allMail(app)) expect(mail).not.toContain("EPP-7xQ!k2");
});
