import { expect, expectNoA11yViolations, test } from "../support/fixtures";
import { allMail, mailAbout } from "../support/mail-files";
import { linkIn, paidInquiryWithLinks } from "../support/refund-promise";

// An inquiry, an offer, a counter-offer, its acceptance, payment of the price less the fee, the transfer
// code shown to the buyer, "Sold" on the domain page and its absence from the catalog (issue 37), with
// JavaScript on and off, from the links in the emails.
test("offer, counter-offer, acceptance, payment, transfer and Sold", async ({ page, app }) => {
  const { domain, buyerLink, ownerLink } = await paidInquiryWithLinks(app, "offers");

  // The buyer offers; a bad amount is refused with a message and kept.
  await page.goto(buyerLink);
  await expect(page.getByRole("heading", { name: "Make an offer" })).toBeVisible();
  await page.getByLabel("Your offer (USD)").fill("0");
  await page.getByRole("button", { name: "Send offer" }).click();
  await expect(page.getByRole("alert")).toHaveText("An offer must be more than $0.");
  await expect(page.getByLabel("Your offer (USD)")).toHaveValue("0");
  await page.getByLabel("Your offer (USD)").fill("4000");
  await page.getByRole("button", { name: "Send offer" }).click();
  await expect(page.getByRole("status")).toHaveText("Your offer was sent.");
  await expect(page.getByText("Offer: $4,000", { exact: true })).toBeVisible();
  await expectNoA11yViolations(page);

  // The owner counters.
  await page.goto(ownerLink);
  await expect(page.getByText("The buyer's offer: $4,000")).toBeVisible();
  await page.getByLabel("Counter-offer (USD)").fill("5000");
  await page.getByRole("button", { name: "Counter" }).click();
  await expect(page.getByRole("status")).toHaveText("Your counter-offer was sent.");
  await expectNoA11yViolations(page);

  // The buyer accepts: a deal at $5,000, the fee credited, "Pay $4,980.01".
  await page.goto(buyerLink);
  await expect(page.getByText("The owner's offer: $5,000")).toBeVisible();
  await page.getByRole("button", { name: "Accept offer" }).click();
  await expect(page.getByRole("status")).toHaveText("Offer accepted: a deal is agreed.");
  await expect(page.getByText("Deal agreed: $5,000")).toBeVisible();
  await expect(page.getByText("Inquiry fee credited: -$19.99")).toBeVisible();
  await page.goto(`/domain/${domain.short}`);
  await expect(page.getByText("Under offer")).toBeVisible();

  await page.goto(buyerLink);
  await page.getByRole("button", { name: "Pay $4,980.01" }).click();
  await expect(page.getByText(`Purchase of ${domain.name}`)).toBeVisible();
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry").fill("12/40");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: "Pay $4,980.01" }).click();
  await expect(page.getByRole("heading", { level: 1, name: `Your purchase of ${domain.name}` })).toBeVisible();
  await expect(page.locator("[data-deal-status]")).toHaveText("Paid: waiting for the transfer details");
  const buyerDeal = page.url();

  // Sold: the domain page says so; the catalog's search no longer lists it.
  await page.goto(`/domain/${domain.short}`);
  await expect(page.getByRole("heading", { level: 1, name: `${domain.name} has been sold` })).toBeVisible();
  await page.goto(`/?q=${domain.short}`);
  await expect(page.getByRole("link", { name: domain.name })).toHaveCount(0);

  // The owner sends the code; only the buyer's page shows it.
  await page.goto(linkIn(await mailAbout(app, "deal_paid_owner", domain.name), "/deal/"));
  await page.getByLabel("Authorization code").fill("AUTH-93kd-77");
  await page.getByRole("button", { name: "Send transfer details" }).click();
  await expect(page.getByRole("status")).toHaveText("The transfer details were sent to the buyer.");
  await page.goto(buyerDeal);
  await expect(page.getByText("AUTH-93kd-77")).toBeVisible();
  await page.getByRole("button", { name: "I have received the domain" }).click();
  await expect(page.locator("[data-deal-status]")).toHaveText("Completed");
  for (const mail of allMail(app)) expect(mail).not.toContain("AUTH-93kd-77");
});

// Once the name has a new owner, the inquiry sent to the earlier owner keeps its conversation but closes
// its offers, on both sides' pages.
test("offers close on an inquiry whose name has had a new owner since", async ({ page, app }) => {
  const { domain, buyerLink, ownerLink } = await paidInquiryWithLinks(app, "newowner");
  await page.goto(buyerLink);
  await page.getByLabel("Your offer (USD)").fill("4000");
  await page.getByRole("button", { name: "Send offer" }).click();
  await expect(page.getByRole("status")).toHaveText("Your offer was sent.");

  app.db().prepare("UPDATE domains SET owner_email = ? WHERE id = ?").run(`new-${domain.id}@owner.example`, domain.id);
  const closed = "This name has had a new owner since this inquiry was sent, so offers here are closed.";
  await page.goto(ownerLink);
  await expect(page.getByText(closed, { exact: false })).toBeVisible();
  await expect(page.getByRole("button", { name: "Accept offer" })).toHaveCount(0);
  await expectNoA11yViolations(page);
  await page.goto(buyerLink);
  await expect(page.getByText(closed, { exact: false })).toBeVisible();
  await expect(page.getByRole("button", { name: "Send offer" })).toHaveCount(0);
});
