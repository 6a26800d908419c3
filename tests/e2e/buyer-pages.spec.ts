import { insertDomain, uniqueDomainName } from "../support/data";
import { runScript } from "../support/app-server";
import { setFeeCents } from "../support/http";
import { setResponseWindowDays, setSilencePolicy } from "../support/refund-promise";
import { expect, expectNoA11yViolations, test } from "../support/fixtures";

test("splash shows the brand, the tagline and the domains for sale", async ({ page, app }) => {
  // Newest first: a domain added now is on the first page, whatever other tests of this worker added.
  const name = uniqueDomainName("splash");
  insertDomain(app.db(), { name, priceCents: 1_250_000 });
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "DomainVault" })).toBeVisible();
  await expect(page.getByText("Premium Domain Acquisitions")).toBeVisible();
  await expect(page.getByRole("link", { name: new RegExp(name.replace(/\./g, "\\.")) })).toHaveAttribute(
    "href",
    `/domain/${name.replace(/\.com$/, "")}`,
  );
  await expectNoA11yViolations(page);
});

test.describe("the splash page's animated background", () => {
  // The other tests run with reduced motion (playwright.config.ts): here a visitor who allows motion.
  test.use({ reducedMotion: "no-preference" });

  test("drifts for a visitor who allows motion and stands still for one who asks for less", async ({ page }) => {
    const running = () =>
      page.evaluate(() =>
        [...document.querySelectorAll(".splash-orb")].map(
          (orb) => orb.getAnimations().filter((animation) => animation.playState === "running").length,
        ),
      );
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1, name: "DomainVault" })).toBeVisible();
    expect(await running()).toEqual([1, 1]);
    await page.emulateMedia({ reducedMotion: "reduce" });
    expect(await running()).toEqual([0, 0]);
  });
});

test("browse: search as a GET form and pagination", async ({ page, app }) => {
  const db = app.db();
  const tag = `pager${Date.now().toString(36)}`;
  for (let i = 0; i < 30; i++)
    insertDomain(db, { name: `${tag}-${String(i).padStart(2, "0")}.com`, priceCents: 100_000 + i });
  await page.goto("/");
  await page.getByRole("searchbox", { name: "Search domains" }).fill(tag);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(new RegExp(`q=${tag}`));
  await expect(page.getByText(`30 names matching "${tag}"`)).toBeVisible();
  // Newest first: the last inserted comes first.
  await expect(page.getByRole("link", { name: new RegExp(`${tag}-29\\.com`) })).toBeVisible();
  await expect(page.getByText("Page 1 of 2")).toBeVisible();
  await page.getByRole("link", { name: "Next" }).click();
  await expect(page.getByText("Page 2 of 2")).toBeVisible();
  await expect(page.getByRole("link", { name: new RegExp(`${tag}-00\\.com`) })).toBeVisible();
  await expectNoA11yViolations(page);
});

test("browse: a long list links to the first, the last and the pages around the current one", async ({ page, app }) => {
  const tag = `pages${Date.now().toString(36)}`;
  // 24 a page: 8 pages.
  for (let i = 0; i < 24 * 7 + 5; i++)
    insertDomain(app.db(), { name: `${tag}-${String(i).padStart(3, "0")}.com`, priceCents: 100_000 + i });
  await page.goto(`/?q=${tag}`);
  const pages = page.getByRole("navigation", { name: "Pagination" });
  await expect(pages.getByRole("link", { name: "Page 1", exact: true })).toHaveAttribute("aria-current", "page");
  await expect(pages.getByRole("link", { name: "Page 2", exact: true })).toBeVisible();
  await expect(pages.getByRole("link", { name: "Page 5", exact: true })).toHaveCount(0);
  await pages.getByRole("link", { name: "Page 8", exact: true }).click();
  await expect(page).toHaveURL(/page=8/);
  await expect(page.getByText("Page 8 of 8")).toBeVisible();
  await expect(pages.getByRole("link", { name: "Page 8", exact: true })).toHaveAttribute("aria-current", "page");
  await expect(pages.getByRole("link", { name: "Page 1", exact: true })).not.toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("link", { name: new RegExp(`${tag}-000\\.com`) })).toBeVisible();
  await pages.getByRole("link", { name: "Page 7", exact: true }).click();
  await pages.getByRole("link", { name: "Page 6", exact: true }).click();
  await expect(page.getByText("Page 6 of 8")).toBeVisible();
  await expect(pages.getByRole("link", { name: "Page 6", exact: true })).toHaveAttribute("aria-current", "page");
  await expect(pages.getByRole("link", { name: "Page 5", exact: true })).toBeVisible();
  await expectNoA11yViolations(page);
});

test("search that matches nothing says so", async ({ page }) => {
  await page.goto("/?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E");
  await expect(page.getByText("No domains match your search.")).toBeVisible();
  await expect(page.getByRole("searchbox", { name: "Search domains" })).toHaveValue("<script>alert(1)</script>");
});

test("domain page shows the price, the fee and the inquiry link", async ({ page, app }) => {
  const name = uniqueDomainName("show");
  insertDomain(app.db(), { name, priceCents: 2_500_000 });
  const short = name.replace(/\.com$/, "");
  await page.goto(`/domain/${short}`);
  await expect(page).toHaveTitle(`${name} is for sale | DomainVault`);
  await expect(page.getByRole("heading", { level: 1, name: `${name} is for sale`, exact: true })).toBeVisible();
  await expect(page.getByText("Guiding Price")).toBeVisible();
  await expect(page.getByText("$25,000")).toBeVisible();
  // Issue #26 item 4: how an inquiry goes on from the fee, and who takes the payment (test mode here).
  const how = page.getByRole("region", { name: "How it works" });
  await expect(how.getByRole("listitem")).toHaveText([
    "1Pay the inquiry fee and send your message.",
    "2The owner replies to you directly.",
    "3You agree a price with the owner.",
    "4The name is transferred through an escrow service.",
  ]);
  const inquiry = page.getByRole("link", { name: /^Start Inquiry \(\$\d/ });
  await expect(inquiry.locator("xpath=following-sibling::p[1]")).toHaveText("Test mode - no real charge");
  await expect(page.getByText("Payments by Stripe")).toHaveCount(0);
  await expect(page.getByText("Premium domain available for acquisition")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Direct Communication" })).toBeVisible();
  await expect(page.getByText(/Start your inquiry process with a one-time fee of \$\d/)).toBeVisible();
  await expect(page.getByRole("link", { name: /^Start Inquiry \(\$\d/ })).toHaveAttribute("href", `/payment/${short}`);
  // Issue #26 item 6: the promise from the settings, beside the spec's sentence.
  await expect(page.getByText("If the owner does not respond, you get a full refund or free credit.")).toBeVisible();
  try {
    setSilencePolicy(app.db(), "refund");
    setResponseWindowDays(app.db(), 3);
    await page.reload();
    await expect(page.locator("[data-promise]")).toHaveText(
      "Refunded automatically if the owner doesn't reply within 3 days.",
    );
    setSilencePolicy(app.db(), "choose");
    await page.reload();
    await expect(page.locator("[data-promise]")).toHaveText(
      "If the owner doesn't reply within 3 days, you choose: a refund or a credit for another name.",
    );
  } finally {
    setResponseWindowDays(app.db(), 7);
  }
  await page.getByRole("link", { name: "Back to Domains" }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto(`/domain/${short}`);
  await expectNoA11yViolations(page);
});

test("a .com name with more labels links to its own page and inquiry, not to a shorter name's", async ({
  page,
  app,
}) => {
  // "shop.us.com" used to link to /domain/shop.us (missing) and "x.com.com" to /domain/x.com (another domain).
  const tag = `sl${Date.now().toString(36)}${test.info().parallelIndex}`;
  insertDomain(app.db(), { name: `${tag}.com`, priceCents: 100_000 });
  insertDomain(app.db(), { name: `${tag}.com.com`, priceCents: 4_321_00 });
  insertDomain(app.db(), { name: `${tag}.us.com`, priceCents: 7_654_00 });
  for (const [name, price] of [
    [`${tag}.com.com`, "$4,321"],
    [`${tag}.us.com`, "$7,654"],
  ] as const) {
    await page.goto(`/?q=${tag}`);
    await page.getByRole("link", { name: new RegExp(`^${name.replace(/\./g, "\\.")}`) }).click();
    await expect(page).toHaveURL(new RegExp(`/domain/${name.replace(/\./g, "\\.")}$`));
    await expect(page.getByRole("heading", { level: 1, name: `${name} is for sale`, exact: true })).toBeVisible();
    // The guiding price (data-price), not a similar name's that happens to cost the same.
    await expect(page.locator("[data-price]").filter({ hasText: price }).first()).toBeVisible();
    await page.getByRole("link", { name: /^Start Inquiry/ }).click();
    await expect(page).toHaveURL(new RegExp(`/payment/${name.replace(/\./g, "\\.")}$`));
    await expect(page.getByText(name).first()).toBeVisible();
    await expect(page.getByText("Domain not found.")).toHaveCount(0);
  }
});

test("with free inquiries (fee 0) the domain page promises no refund and calls nothing a guarantee", async ({
  page,
  app,
}) => {
  const name = uniqueDomainName("freeui");
  insertDomain(app.db(), { name, priceCents: 300_000 });
  setFeeCents(app.db(), 0);
  try {
    await expect(async () => {
      await page.goto(`/domain/${name.replace(/\.com$/, "")}`);
      await expect(page.getByText("Start your inquiry process: inquiries are currently free")).toBeVisible({
        timeout: 500,
      });
    }).toPass({ timeout: 5_000 });
    // The page itself: the footer links to the Refund policy on every page, and "More names like this" may
    // list another test's name (refund-...).
    const ownSections = page.getByRole("main").locator("section:not([aria-labelledby='similar-heading'])");
    await expect(ownSections.getByText(/refund/i)).toHaveCount(0);
    await expect(page.getByText(/serious inquiries/)).toHaveCount(0);
    await expect(page.getByText("$0")).toHaveCount(0);
    // Nothing to pay: the first step is only the message, and no payment processor is named.
    await expect(page.getByRole("region", { name: "How it works" }).getByRole("listitem").first()).toHaveText(
      "1Send your message: inquiries are currently free.",
    );
    await expect(page.getByText("Payments by Stripe")).toHaveCount(0);
    await expect(page.getByText("Test mode - no real charge")).toHaveCount(0);
    await page.getByRole("link", { name: "Start Inquiry (free)" }).click();
    await expect(page.getByText("Inquiries are currently free.", { exact: true })).toBeVisible();
  } finally {
    setFeeCents(app.db(), 1999);
  }
});

test("an internationalized name is shown in Unicode and found by a Unicode search", async ({ page, app }) => {
  const tag = `${Date.now().toString(36)}${test.info().parallelIndex}`;
  const unicode = `münchen${tag}.de`;
  const ascii = new URL(`http://${unicode}`).hostname;
  insertDomain(app.db(), { name: ascii, priceCents: 8_800_00 });
  await page.goto("/");
  await page.getByRole("searchbox", { name: "Search domains" }).fill(`münchen${tag}`);
  await page.getByRole("button", { name: "Search" }).click();
  await page.getByRole("link", { name: new RegExp(`^${unicode.replace(/\./g, "\\.")}`) }).click();
  await expect(page.getByRole("heading", { level: 1, name: `${unicode} is for sale`, exact: true })).toBeVisible();
  await expect(page).toHaveTitle(`${unicode} is for sale | DomainVault`);
  await expect(page.getByText(ascii)).toHaveCount(0);
});

test("a missing domain shows the not-found view with status 404", async ({ page }) => {
  const response = await page.goto("/domain/no-such-domain-here");
  expect(response?.status()).toBe(404);
  await expect(page.getByText("The domain you're looking for doesn't exist.")).toBeVisible();
  await expectNoA11yViolations(page);
  await page.getByRole("link", { name: "Back to Home" }).click();
  await expect(page.getByText("Premium Domain Acquisitions")).toBeVisible();
});

test("contact page explains that inquiries are paid", async ({ page }) => {
  await page.goto("/contact/velora");
  await expect(page.getByRole("heading", { name: "Payment Required" })).toBeVisible();
  await expect(page.getByText("Secure payments processed via Stripe")).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to Home" })).toHaveAttribute("href", "/");
  await expectNoA11yViolations(page);
  await page.getByRole("link", { name: "Browse Domains" }).click();
  await expect(page.getByRole("heading", { name: "Domains for sale" })).toBeVisible();
});

test("a fee change reaches an open domain page live", async ({ page, app, javaScriptOn }) => {
  test.skip(!javaScriptOn, "Live updates need JavaScript; without it the next page load shows the fee.");
  await page.goto("/domain/velora");
  await expect(page.getByRole("link", { name: /^Start Inquiry/ })).toBeVisible();
  const cents = 3000 + Math.floor(Math.random() * 5000);
  const dollars = (cents / 100).toFixed(2);
  const result = await runScript(app, "set-fee.ts", [dollars]);
  expect(result.code, result.output).toBe(0);
  const shown = cents % 100 === 0 ? `$${cents / 100}` : `$${dollars}`;
  await expect(page.getByRole("link", { name: `Start Inquiry (${shown})` })).toBeVisible({ timeout: 2_000 });
  await expect(page.getByText(`Start your inquiry process with a one-time fee of ${shown}`)).toBeVisible();
});

test("without JavaScript the next page load shows the new fee", async ({ page, app }) => {
  const result = await runScript(app, "set-fee.ts", ["21.50"]);
  expect(result.code, result.output).toBe(0);
  await page.goto("/domain/velora");
  await expect(page.getByRole("link", { name: "Start Inquiry ($21.50)" })).toBeVisible();
});
