import { startFakeStripe, type FakeStripe } from "../support/fake-stripe";
import { insertDomain, uniqueDomainName } from "../support/data";
import { expect, expectNoA11yViolations, test as base } from "../support/fixtures";
import { BUYER, setFeeCents } from "../support/http";

// The stripe provider in the browser, offline: the server talks to a Stripe-compatible test server;
// js.stripe.com is blocked, so the Payment Element cannot load and the page must say so and offer
// Checkout instead. Without JavaScript the form goes straight to Checkout and comes back.
const test = base.extend<{}, { fakeStripe: FakeStripe }>({
  fakeStripe: [
    async ({}, use) => {
      const fake = await startFakeStripe();
      await use(fake);
      await fake.stop();
    },
    { scope: "worker" },
  ],
  appEnv: [
    async ({ fakeStripe }, use) =>
      use({
        STRIPE_SECRET_KEY: "sk_test_fake",
        STRIPE_PUBLISHABLE_KEY: "pk_test_fake",
        STRIPE_WEBHOOK_SECRET: "whsec_e2e",
        STRIPE_API_BASE: fakeStripe.url,
      }),
    { scope: "worker" },
  ],
});

test.beforeEach(async ({ app, page }) => {
  setFeeCents(app.db(), 1999);
  // No request may leave the machine.
  await page.route(/^https:\/\/([a-z0-9-]+\.)*stripe\.(com|network)\//, (route) => route.abort());
});

test("pays through Checkout, with the Payment Element unavailable or without JavaScript", async ({
  page,
  app,
  javaScriptOn,
}) => {
  const name = uniqueDomainName("stripe-e2e");
  const domainId = insertDomain(app.db(), { name, priceCents: 300_000 });
  const short = name.replace(/\.com$/, "");
  await page.goto(`/payment/${short}`);
  await expect(page.getByText("Test mode - no real charge")).toHaveCount(0);
  await page.getByLabel("Full Name").fill(BUYER.name);
  await page.getByLabel("Email Address").fill(BUYER.email);
  await page.getByLabel("Message to Owner").fill(BUYER.message);
  await page.getByRole("button", { name: "Continue to Payment" }).click();

  if (javaScriptOn) {
    await expect(page.getByRole("heading", { level: 1, name: "Complete Payment" })).toBeVisible();
    await expect(page.getByRole("alert")).toContainText("The secure payment form could not be loaded.");
    await expectNoA11yViolations(page);
    await page.getByRole("button", { name: "Pay $19.99 on the checkout page" }).click();
  }
  // The Stripe-compatible server's checkout page pays and redirects back (303).
  await expect(page.getByRole("heading", { name: "Payment Successful!" })).toBeVisible();
  await expect(page.getByText(`Your inquiry for ${name} has been sent to the owner.`)).toBeVisible();
  await expectNoA11yViolations(page);
  const count = app.db().prepare("SELECT inquiry_count AS n FROM domains WHERE id = ?").get(domainId) as { n: number };
  expect(count.n).toBe(1);
});

const noKeyTest = test.extend({
  appEnv: [
    async ({ fakeStripe }, use) => use({ STRIPE_SECRET_KEY: "sk_test_fake", STRIPE_API_BASE: fakeStripe.url }),
    { scope: "worker" },
  ],
});

noKeyTest(
  "without a publishable key the payment step names the configuration error",
  async ({ page, app, javaScriptOn }) => {
    noKeyTest.skip(
      !javaScriptOn,
      "The Payment Element needs JavaScript; without it Checkout is used and needs no publishable key.",
    );
    const name = uniqueDomainName("nokey");
    insertDomain(app.db(), { name, priceCents: 300_000 });
    await page.goto(`/payment/${name.replace(/\.com$/, "")}`);
    await page.getByLabel("Full Name").fill(BUYER.name);
    await page.getByLabel("Email Address").fill(BUYER.email);
    await page.getByLabel("Message to Owner").fill(BUYER.message);
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await expect(page.getByRole("alert")).toHaveText("Stripe configuration error: Missing publishable key");
  },
);
