import { expect, expectNoA11yViolations, test } from "../support/fixtures";
import { setFeeCents } from "../support/http";
import { CookieJar } from "../support/owner";
import { newDomain, payInquiry } from "../support/refund-promise";

// The buyer's inquiry page (issue 23 item 1), reached from the success step, with JavaScript on and off.
test.use({ appEnv: { REFUND_SCHEDULER_INTERVAL_MS: "3600000" } });

test("the success step links to the buyer's inquiry page, which shows where the inquiry stands", async ({
  page,
  app,
}) => {
  setFeeCents(app.db(), 1999);
  const domain = newDomain(app, { prefix: "buyerpage" });
  // Paid over HTTP: the browser then holds the cookie that marks it as the one that paid.
  const buyer = new CookieJar();
  const inquiry = await payInquiry(app, domain, {}, buyer);
  const { hostname } = new URL(app.url);
  await page
    .context()
    .addCookies([...buyer.cookies].map(([name, value]) => ({ name, value, domain: hostname, path: "/payment" })));
  await page.goto(`/payment/${domain.short}?inquiry=${inquiry.public_id}`);
  await expect(page.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();
  await page.getByRole("link", { name: "View your inquiry" }).click();

  await expect(page).toHaveURL(new RegExp(`/inquiry/${inquiry.public_id}\\?sig=`));
  await expect(page).toHaveTitle(/^Your inquiry \|/);
  await expect(
    page.getByRole("heading", {
      level: 1,
      name: `Your inquiry for ${domain.name}`,
    }),
  ).toBeVisible();
  await expect(page.getByTestId("inquiry-status")).toHaveText("Waiting for the owner's reply");
  await expect(page.getByText("$19.99")).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Conversation" })).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: "I would like to buy this domain" })).toContainText("You");
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
  await expectNoA11yViolations(page);

  // One character of the signature changed: the site's plain 404.
  const forged = page.url().replace(/sig=(.)/, (_m, c: string) => `sig=${c === "Q" ? "R" : "Q"}`);
  const response = await page.goto(forged);
  expect(response?.status()).toBe(404);
  await expect(page.getByText("Waiting for the owner's reply")).toHaveCount(0);
});
