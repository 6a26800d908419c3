import { formatUsd } from "../../app/lib/money";
import { runScript } from "../support/app-server";
import { insertDomain, uniqueDomainName } from "../support/data";
import { expect, test } from "../support/fixtures";

test("under the Content-Security-Policy pages hydrate, navigate client-side and get the live fee, with no violation", async ({
  page,
  app,
  javaScriptOn,
}) => {
  test.skip(!javaScriptOn, "The policy matters for scripts; without JavaScript nothing runs.");
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      console.error(`Refused to load: CSP violation of ${event.violatedDirective} by ${event.blockedURI}`);
    });
  });

  // Newest first: a domain added now is on the first page, whatever other tests of this worker added.
  const name = uniqueDomainName("csp");
  insertDomain(app.db(), { name, priceCents: 990_000 });
  const response = await page.goto("/");
  expect(response?.headers()["content-security-policy"]).toContain("'nonce-");
  await page.evaluate(() => ((window as unknown as { keptAcrossNavigation: boolean }).keptAcrossNavigation = true));
  // A client-side navigation (hydrated React Router) keeps the window object; a full page load would not.
  await page.getByRole("link", { name: new RegExp(name.replace(/\./g, "\\.")) }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  expect(
    await page.evaluate(() => (window as unknown as { keptAcrossNavigation?: boolean }).keptAcrossNavigation),
  ).toBe(true);

  // The live fee (EventSource to /events/fee) still works under connect-src 'self'.
  const cents = 4000 + Math.floor(Math.random() * 900);
  const result = await runScript(app, "set-fee.ts", [(cents / 100).toFixed(2)]);
  expect(result.code, result.output).toBe(0);
  // Shown as the page shows money: $40 for 4000 cents, $40.01 for 4001 (a whole-dollar fee was a 1-in-900 flake).
  await expect(page.getByRole("link", { name: `Start Inquiry (${formatUsd(cents)})` })).toBeVisible({ timeout: 3_000 });

  // The payment page has its own policy (Stripe's hosts allowed); it must load without a violation too.
  const payment = await page.goto("/payment/velora");
  expect(payment?.headers()["content-security-policy"]).toContain("https://js.stripe.com");
  await expect(page.getByRole("heading", { name: "Domain Inquiry" })).toBeVisible();

  await page.goto("/contact/velora");
  await page.getByRole("link", { name: "Back to Home" }).click();
  await expect(page.getByText("Premium Domain Acquisitions")).toBeVisible();
  expect(violations).toEqual([]);
});
