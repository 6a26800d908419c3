import type { Page } from "@playwright/test";
import type { AppServer } from "../support/app-server";
import { expect, expectNoA11yViolations, test } from "../support/fixtures";
import { postForm } from "../support/http";
import { mailAbout } from "../support/mail-files";
import { codeIn } from "../support/owner";
import { linkIn, newDomain, payInquiry } from "../support/refund-promise";
import { TEXT } from "../../app/lib/admin-forms";

// Offers on the owner's desk (issue 37): the owner's "Accept offers at or above" on a name's Prices form,
// and the owner answering a buyer's offer on the desk's inquiry card, with JavaScript on and off. The
// buyer's own offers are posted as their page's form would post them (the buyer's page has its tests).

let owners = 0;
/** A name of a new owner's, with one paid inquiry; returns the buyer's page link. */
async function ownerWithInquiry(app: AppServer, prefix: string) {
  owners += 1;
  const ownerEmail = `${prefix}-${process.pid}-${Date.now()}-${owners}@owners.example`;
  const domain = newDomain(app, { ownerEmail, prefix });
  const inquiry = await payInquiry(app, domain, { email: `buyer-${domain.id}@buyer.example` });
  const buyerLink = linkIn(await mailAbout(app, "buyer_receipt", inquiry.public_id), "/inquiry/");
  return { ownerEmail, domain, buyerLink };
}

/** The owner signs in with the emailed code (the worker's server writes its mail to files). */
async function signInOwner(page: Page, app: AppServer, email: string) {
  await page.goto("/owner");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Email me a sign-in code" }).click();
  await page.getByLabel("Code").fill(codeIn(await mailAbout(app, "owner_sign_in_code", email)));
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Your desk" })).toBeVisible();
}

/** The buyer's offer or counter-offer, posted from their inquiry page. */
async function buyerOffers(app: AppServer, buyerLink: string, dollars: string, intent = "send-offer") {
  const field = intent === "counter-offer" ? "counterAmount" : "offerAmount";
  const posted = await postForm(app, buyerLink, { intent, [field]: dollars });
  expect(posted.status, `the buyer's ${intent} of $${dollars}`).toBe(303);
}

test("the owner's Accept offers at or above makes a deal of the buyer's offer at once", async ({ page, app }) => {
  const { ownerEmail, domain, buyerLink } = await ownerWithInquiry(app, "autoaccept");
  await signInOwner(page, app, ownerEmail);
  await page.goto(`/owner/domains/${domain.id}`);
  const field = page.getByLabel("Accept offers at or above");
  // Over $100,000,000: refused with the message, the text kept.
  await field.fill("200000000");
  await page.getByRole("button", { name: "Save prices" }).click();
  await expect(page.getByRole("alert")).toHaveText(TEXT.autoAcceptInvalid);
  await expect(field).toHaveValue("200000000");
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expectNoA11yViolations(page);
  await field.fill("3000");
  await page.getByRole("button", { name: "Save prices" }).click();
  await expect(page.getByRole("status")).toHaveText("Price saved.");
  await expect(field).toHaveValue("3000.00");

  // Below it the offer waits for the owner; at it, the deal is agreed and the buyer's page says so.
  await page.goto(buyerLink);
  await page.getByLabel("Your offer (USD)").fill("2999");
  await page.getByRole("button", { name: "Send offer" }).click();
  await expect(page.getByRole("status")).toHaveText("Your offer was sent.");
  await page.getByLabel("Your offer (USD)").fill("3000");
  await page.getByRole("button", { name: "Send offer" }).click();
  await expect(page.getByRole("status")).toHaveText("Offer accepted: a deal is agreed.");
  await expect(page.getByText("Deal agreed: $3,000")).toBeVisible();
  await expect(page.getByRole("button", { name: /^Pay \$/ })).toBeVisible();
});

test("the owner declines, counters and accepts a buyer's offers on the desk's card", async ({ page, app }) => {
  const { ownerEmail, domain, buyerLink } = await ownerWithInquiry(app, "deskoffer");
  await buyerOffers(app, buyerLink, "2000");
  await signInOwner(page, app, ownerEmail);
  const card = page.getByRole("article", { name: new RegExp(domain.name.replace(/\./g, "\\.")) });
  await expect(card.getByText("The buyer's offer: $2,000")).toBeVisible();
  // One set of actions: the offer's answers, one reply form, "I have replied".
  await expect(card.getByRole("button", { name: "Send reply" })).toHaveCount(1);
  await expect(card.getByRole("button", { name: "I have replied" })).toBeVisible();
  await expectNoA11yViolations(page);
  await card.getByRole("button", { name: "Decline" }).click();
  await expect(page.getByRole("status")).toHaveText("The offer was declined.");
  await expect(card.getByText(/The buyer's offer/)).toHaveCount(0);

  // A new offer: a counter that is not an amount is refused and kept, then a real one goes.
  await buyerOffers(app, buyerLink, "2200");
  await page.reload();
  await card.getByLabel("Counter-offer (USD)").fill("a lot");
  await card.getByRole("button", { name: "Counter" }).click();
  await expect(card.getByRole("alert")).toHaveText("Enter the offer as an amount in US dollars, like 2500 or 2500.00.");
  await expect(card.getByLabel("Counter-offer (USD)")).toHaveValue("a lot");
  await card.getByLabel("Counter-offer (USD)").fill("2400");
  await card.getByRole("button", { name: "Counter" }).click();
  await expect(page.getByRole("status")).toHaveText("Your counter-offer was sent.");
  await expect(card.getByText("The owner's offer: $2,400")).toBeVisible();

  // The buyer counters; the owner accepts: a deal, on the card and on the buyer's page.
  await buyerOffers(app, buyerLink, "2300", "counter-offer");
  await page.reload();
  await card.getByRole("button", { name: "Accept offer" }).click();
  await expect(page.getByRole("status")).toHaveText("Offer accepted: a deal is agreed.");
  await expect(card.getByText("Deal: Deal agreed ($2,300)")).toBeVisible();
  await page.goto(buyerLink);
  await expect(page.getByText("Deal agreed: $2,300")).toBeVisible();
});
