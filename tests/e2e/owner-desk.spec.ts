import { insertPaidInquiry, signInAdmin, TEST_ADMIN } from "../support/admin";
import { removeDataDir, startAppServer, type AppServer } from "../support/app-server";
import { insertDomain, uniqueDomainName } from "../support/data";
import { paidBuyNow } from "../support/deals";
import { expect, expectNoA11yViolations, test as base } from "../support/fixtures";
import { codeIn, signInLinkIn, signInMail } from "../support/owner";
import { startSmtp, type TestSmtp } from "../support/smtp";

// The owner's sign-in reads its code and link from a real SMTP server, started with the worker's app.
const test = base.extend<object, { smtp: TestSmtp; app: AppServer }>({
  smtp: [
    async ({}, use) => {
      const smtp = await startSmtp();
      await use(smtp);
      await smtp.stop();
    },
    { scope: "worker" },
  ],
  app: [
    async ({ smtp }, use) => {
      const server = await startAppServer({
        env: { ADMIN_EMAIL: TEST_ADMIN.email, ADMIN_PASSWORD: TEST_ADMIN.password, SMTP_URL: smtp.url },
      });
      await use(server);
      await server.stop();
      removeDataDir(server);
    },
    { scope: "worker" },
  ],
});

let ownerCount = 0;
/** A new owner with one domain and one paid inquiry. */
function newOwner(app: AppServer) {
  ownerCount += 1;
  const email = `owner-${process.pid}-${Date.now()}-${ownerCount}@owners.example`;
  const name = uniqueDomainName("desk");
  const domainId = insertDomain(app.db(), { name, priceCents: 420_000, ownerEmail: email });
  insertPaidInquiry(app.db(), { domainId, domainName: name, name: "Desk Buyer", message: "Is it still for sale?" });
  return { email, name, domainId };
}

async function askForCode(page: import("@playwright/test").Page, smtp: TestSmtp, email: string) {
  const seen = smtp.messages.length;
  await page.goto("/owner");
  await expect(page.getByRole("heading", { level: 1, name: "Owner sign-in" })).toBeVisible();
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Email me a sign-in code" }).click();
  await expect(page.getByLabel("Code")).toBeVisible();
  return signInMail(smtp, email, seen);
}

test("an owner signs in with the emailed code, sees the desk and changes a price", async ({ page, app, smtp }) => {
  const owner = newOwner(app);
  const mail = await askForCode(page, smtp, owner.email);
  await page.getByLabel("Code").fill(codeIn(mail));
  await page.getByRole("button", { name: "Sign in" }).click();

  await expect(page.getByRole("heading", { level: 1, name: "Your desk" })).toBeVisible();
  const row = page.getByRole("row", { name: new RegExp(owner.name.replace(/\./g, "\\.")) });
  await expect(row).toContainText("$4,200");
  await expect(page.getByRole("heading", { name: /Desk Buyer about/ })).toBeVisible();
  await expect(page.getByRole("link", { name: "Download inquiries (CSV)" })).toBeVisible();
  await expectNoA11yViolations(page);

  await row.getByRole("link").click();
  await expect(page.getByRole("heading", { level: 1, name: owner.name })).toBeVisible();
  await page.getByLabel("Asking price (USD)").fill("5100");
  await page.getByRole("button", { name: "Save prices" }).click();
  await expect(page.getByRole("status")).toHaveText("Price saved.");
  await expect(page.getByText("Asking price $5,100")).toBeVisible();
  await expectNoA11yViolations(page);

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Owner sign-in" })).toBeVisible();
});

test("the desk lists the owner's deals, each opening the owner's deal page", async ({ page, app, smtp }) => {
  const owner = newOwner(app);
  const deal = await paidBuyNow(app, { ownerEmail: owner.email, buyNowCents: 830_000, prefix: "deskdeal" });
  const other = await paidBuyNow(app, { ownerEmail: `other-${owner.email}`, buyNowCents: 910_000 });
  const mail = await askForCode(page, smtp, owner.email);
  await page.getByLabel("Code").fill(codeIn(mail));
  await page.getByRole("button", { name: "Sign in" }).click();

  const deals = page.getByRole("region", { name: "Deals" });
  const row = deals.getByRole("row").filter({ hasText: deal.name });
  await expect(row).toContainText("$8,300");
  await expect(row).toContainText("Paid: waiting for the transfer details");
  await expect(deals.getByText(other.name)).toHaveCount(0);
  await expectNoA11yViolations(page);
  await row.getByRole("link", { name: /^Open/ }).click();
  await expect(page.getByRole("heading", { level: 1, name: `Sale of ${deal.name}` })).toBeVisible();
  await expect(page.getByLabel("Authorization code")).toBeVisible();
});

test("an owner signs in from the emailed link; a wrong code is refused first", async ({ page, app, smtp }) => {
  const owner = newOwner(app);
  const mail = await askForCode(page, smtp, owner.email);
  const code = codeIn(mail);
  await expectNoA11yViolations(page);
  await page.getByLabel("Code").fill(code === "000000" ? "111111" : "000000");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert")).toHaveText("That code is not right. Check the email and try again.");

  await page.goto(signInLinkIn(mail));
  await expect(page.getByRole("heading", { level: 1, name: "Your desk" })).toBeVisible();
  await expect(page.getByRole("row", { name: new RegExp(owner.name.replace(/\./g, "\\.")) })).toBeVisible();

  await page.getByRole("button", { name: "Sign out" }).click();
  await page.goto(signInLinkIn(mail));
  await expect(page.getByRole("alert")).toHaveText("That sign-in link was already used. Ask for a new code.");
});

test("the admin signs an owner out everywhere and turns price changes off", async ({
  page,
  app,
  smtp,
  browser,
  javaScriptOn,
}) => {
  const owner = newOwner(app);
  const ownerContext = await browser.newContext({ baseURL: app.url, javaScriptEnabled: javaScriptOn });
  try {
    const ownerPage = await ownerContext.newPage();
    const mail = await askForCode(ownerPage, smtp, owner.email);
    await ownerPage.getByLabel("Code").fill(codeIn(mail));
    await ownerPage.getByRole("button", { name: "Sign in" }).click();
    await expect(ownerPage.getByRole("heading", { level: 1, name: "Your desk" })).toBeVisible();

    await signInAdmin(page);
    await page.getByRole("link", { name: "Owners" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Owners" })).toBeVisible();
    const ownerRow = page.getByRole("row", { name: new RegExp(owner.email) });
    await expect(ownerRow).toContainText("1");
    // The Domains cell itself (the email in the row may hold a "1" too).
    await expect(ownerRow.getByRole("cell").first()).toHaveText("1");
    await expectNoA11yViolations(page);
    await ownerRow.getByRole("button", { name: "Sign out everywhere" }).click();
    await expect(page.getByRole("status")).toHaveText("That owner is signed out everywhere.");

    await ownerPage.reload();
    await expect(ownerPage.getByRole("heading", { level: 1, name: "Owner sign-in" })).toBeVisible();

    const prices = page.getByRole("switch", { name: "Owners may change their prices" });
    await expect(prices).toHaveAttribute("aria-checked", "true");
    await prices.click();
    await expect(page.getByRole("status")).toHaveText("Owners may no longer change their prices.");
    await expect(page.getByRole("switch", { name: "Owners may change their prices" })).toHaveAttribute(
      "aria-checked",
      "false",
    );
    await page.getByRole("switch", { name: "Owners may change their prices" }).click();
    await expect(page.getByRole("status")).toHaveText("Owners may change their prices.");
  } finally {
    await ownerContext.close();
  }
});

test("the admin hands a domain to a new owner, whose desk shows none of the earlier buyers", async ({
  page,
  app,
  smtp,
}) => {
  const earlier = newOwner(app);
  const newEmail = earlier.email.replace(/^owner-/, "new-owner-");
  await signInAdmin(page);
  await page.goto(`/admin/domains/${earlier.domainId}`);
  const ownerForm = page.getByRole("region", { name: "Owner" });
  await expect(ownerForm.getByLabel("Owner email")).toHaveValue(earlier.email);
  await ownerForm.getByLabel("Owner email").fill(newEmail);
  await ownerForm.getByLabel("Tracking ID").fill("   ");
  await ownerForm.getByRole("button", { name: "Save owner" }).click();
  await expect(ownerForm.getByRole("alert")).toHaveText("Owner not saved: Tracking ID is required");
  await expect(ownerForm.getByLabel("Tracking ID")).toHaveAttribute("aria-invalid", "true");
  await expect(ownerForm.getByLabel("Owner email")).toHaveValue(newEmail);
  await expectNoA11yViolations(page);

  await ownerForm.getByLabel("Tracking ID").fill("new-seller");
  await ownerForm.getByRole("button", { name: "Save owner" }).click();
  await expect(page.getByRole("status")).toHaveText("Owner saved.");
  await expect(ownerForm.getByLabel("Owner email")).toHaveValue(newEmail);
  await expect(ownerForm.getByLabel("Tracking ID")).toHaveValue("new-seller");
  expect(app.db().prepare("SELECT owner_email, tracking_id FROM domains WHERE id = ?").get(earlier.domainId)).toEqual({
    owner_email: newEmail,
    tracking_id: "new-seller",
  });

  // The name is the new owner's; its earlier buyer stays with the owner it was sent to.
  const mail = await askForCode(page, smtp, newEmail);
  await page.getByLabel("Code").fill(codeIn(mail));
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Your desk" })).toBeVisible();
  await expect(page.getByRole("row", { name: new RegExp(earlier.name.replace(/\./g, "\\.")) })).toBeVisible();
  await expect(page.getByText("No paid inquiries yet.")).toBeVisible();
  await expect(page.getByText("Desk Buyer")).toHaveCount(0);
});
