import type { Page, TestInfo } from "@playwright/test";
import { insertPaidInquiry, signInAdmin } from "../support/admin";
import { insertDomain, uniqueDomainName } from "../support/data";
import { expect, expectNoA11yViolations, test } from "../support/fixtures";

// Issue 26, the investor's desk (items 9, 10, 2 and 11), at a phone's width and a desktop's, with
// JavaScript on and off. Screenshots are kept as test artifacts for review.

const WIDTHS = [390, 1366] as const;

async function screenshot(page: Page, testInfo: TestInfo, name: string, width: number) {
  await page.evaluate(() => document.body.offsetHeight);
  await testInfo.attach(`${name}-${width}px-${testInfo.project.name}.png`, {
    body: await page.screenshot({ fullPage: true }),
    contentType: "image/png",
  });
}

async function noSidewaysScroll(page: Page, width: number) {
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth, "the page is no wider than the screen").toBeLessThanOrEqual(width);
}

for (const width of WIDTHS) {
  test(`the panel's first row says what needs the admin now, at ${width} px`, async ({ page, app }, testInfo) => {
    const name = uniqueDomainName("desk");
    const domainId = insertDomain(app.db(), { name, priceCents: 2_450_000 });
    const id = insertPaidInquiry(app.db(), { domainId, domainName: name, name: "Desk Buyer" });
    app
      .db()
      .prepare("UPDATE inquiries SET reply_deadline_at = ? WHERE id = ?")
      .run(new Date(Date.now() - 60_000 + 3 * 86_400_000).toISOString(), id);
    await page.setViewportSize({ width, height: 900 });
    await signInAdmin(page);

    const nav = page.getByRole("navigation", { name: "Admin" });
    await expect(nav.getByRole("link", { name: "Domains" })).toHaveAttribute("aria-current", "page");
    await expect(nav.getByRole("link", { name: /^Inquiries/ })).not.toHaveAttribute("aria-current", "page");
    // The spec's Sign Out stays in the row; Sign out everywhere waits in the Account menu.
    await expect(nav.getByRole("button", { name: "Sign Out", exact: true })).toBeVisible();
    await expect(nav.getByRole("button", { name: "Sign out everywhere" })).toBeHidden();

    const awaitingLink = page.locator('[data-stat="Awaiting reply"]').getByRole("link");
    const awaiting = Number((await awaitingLink.innerText()).replace(/\D/g, ""));
    expect(awaiting).toBeGreaterThanOrEqual(1);
    await expect(nav.getByRole("link", { name: `Inquiries ${awaiting} awaiting reply` })).toBeVisible();
    await expect(page.locator('[data-stat="Next reply due"]')).toContainText(
      /Next reply due in \d+ (days?|hours?|minutes?)/,
    );
    await expect(page.getByText("Fees, last 30 days", { exact: true })).toBeVisible();
    await expect(page.locator('[data-stat="Fees detail"]')).toContainText(/received, \$[\d,.]+ refunded/);
    for (const label of ["Total Domains", "Inquiry Fee", "Total Value"])
      await expect(page.getByText(label, { exact: true })).toBeVisible();
    // The first row: the two desk cards come before the spec's three, on one line at desktop width.
    const tops = await page
      .locator("dl > div > dt")
      .evaluateAll((terms) => terms.slice(0, 5).map((term) => Math.round(term.getBoundingClientRect().top)));
    if (width >= 1366) expect(new Set(tops).size, "five cards in one row").toBe(1);
    await noSidewaysScroll(page, width);
    await screenshot(page, testInfo, "admin-panel", width);
    await expectNoA11yViolations(page);

    // The card's number leads to exactly those inquiries.
    await awaitingLink.click();
    await expect(page.getByRole("heading", { level: 1, name: "Inquiries" })).toBeVisible();
    await expect(page.getByLabel("Status")).toHaveValue("awaiting");
    await expect(page.getByRole("article")).toHaveCount(awaiting);
    await expect(nav.getByRole("link", { name: /^Inquiries/ })).toHaveAttribute("aria-current", "page");
    await expect(nav.getByRole("link", { name: "Domains" })).not.toHaveAttribute("aria-current", "page");
    await noSidewaysScroll(page, width);
  });
}

test("Sign out everywhere is in the Account menu, which opens without JavaScript", async ({ page }) => {
  await signInAdmin(page);
  const nav = page.getByRole("navigation", { name: "Admin" });
  await nav.locator("summary", { hasText: "Account" }).click();
  await expect(nav.getByText("Ends this admin's sessions on every device, this one included.")).toBeVisible();
  await nav.getByRole("button", { name: "Sign out everywhere" }).click();
  await expect(page.getByRole("heading", { name: "Admin Login" })).toBeVisible();
});

for (const width of WIDTHS) {
  test(`the inbox shows the offer against the price, one way to reply, and counts that match the list, at ${width} px`, async ({
    page,
    app,
  }, testInfo) => {
    const name = uniqueDomainName("inbox-desk");
    const domainId = insertDomain(app.db(), { name, priceCents: 2_450_000 });
    const id = insertPaidInquiry(app.db(), {
      domainId,
      domainName: name,
      name: "Offer Buyer",
      message: "Would you take $9,000?",
    });
    const refunded = insertPaidInquiry(app.db(), { domainId, domainName: name, name: "Refunded Buyer" });
    const credited = insertPaidInquiry(app.db(), { domainId, domainName: name, name: "Credited Buyer" });
    const db = app.db();
    db.prepare("UPDATE inquiries SET offer = '$9,000', asking_price_cents = 2450000 WHERE id = ?").run(id);
    db.prepare("UPDATE inquiries SET status = 'refunded', refunded_at = ? WHERE id = ?").run(
      new Date().toISOString(),
      refunded,
    );
    db.prepare("UPDATE inquiries SET credited_at = ?, reply_deadline_at = ? WHERE id = ?").run(
      new Date().toISOString(),
      new Date(Date.now() - 3_600_000).toISOString(),
      credited,
    );
    await page.setViewportSize({ width, height: 900 });
    await signInAdmin(page);
    await page.goto(`/admin/inquiries?domain=${name}`);
    await expect(page.getByTestId("inbox-summary")).toHaveText("3 inquiries: 1 paid, 1 credited, 1 refunded");
    const card = page.getByRole("article", { name: `Offer Buyer about ${name}` });
    await expect(card).toContainText("$9,000 — 37% of the $24,500 asking price");
    const mailto = await card.getByRole("link", { name: "Reply by email" }).getAttribute("href");
    expect(mailto).toMatch(/^mailto:ada@example\.test\?subject=Re%3A%20Your%20inquiry%20about%20/);
    // One set of actions: the reply form is the card's only way to reply in the product, shown as it is.
    await expect(card.getByRole("button", { name: "Send reply" })).toHaveCount(1);
    await expect(card.getByRole("link", { name: "Reply", exact: true })).toHaveCount(0);
    await expect(card.getByRole("button", { name: "Reply", exact: true })).toHaveCount(0);
    await expect(card.getByLabel("Reply as the owner to Offer Buyer")).toBeVisible();
    await expect(card.getByRole("button", { name: "Mark answered" })).toBeVisible();
    await expect(card.getByRole("link", { name: /^Refund \$/ })).toBeVisible();
    // A settled inquiry has no reply form (the conversation is closed), nor Mark answered.
    const creditedCard = page.getByRole("article", { name: `Credited Buyer about ${name}` });
    await expect(creditedCard.getByRole("button", { name: "Mark answered" })).toHaveCount(0);
    await expect(creditedCard).not.toContainText("Reply due by");
    const refundedCard = page.getByRole("article", { name: `Refunded Buyer about ${name}` });
    await expect(refundedCard.getByRole("button", { name: "Send reply" })).toHaveCount(0);
    await expect(refundedCard.getByRole("link", { name: "Reply by email" })).toBeVisible();
    await noSidewaysScroll(page, width);
    await screenshot(page, testInfo, "admin-inbox", width);
    await expectNoA11yViolations(page);

    // The status filter: each option's count is what it lists; credited and refunded are not awaiting.
    await expect(page.getByLabel("Status").locator("option")).toHaveText([
      "All (3)",
      "Awaiting answer (1)",
      "Answered (0)",
      "Past deadline, not answered (0)",
      "Credited (1)",
      "Refunded (1)",
    ]);
    await page.getByLabel("Status").selectOption("awaiting");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page.getByTestId("inbox-summary")).toHaveText("1 inquiry: awaiting answer");
    await expect(page.getByRole("article")).toHaveCount(1);
    await expect(card).toBeVisible();

    // The reply form is there to type in, without opening anything first.
    await card.getByLabel("Reply as the owner to Offer Buyer").fill("Thanks, the owner accepts $9,000.");
    await card.getByRole("button", { name: "Send reply" }).click();
    await expect(page.getByRole("status")).toHaveText("Reply sent to the buyer.");
    // Answered now, it leaves the awaiting list for the answered one.
    await expect(page.getByText("No inquiries match this filter.")).toBeVisible();
    await page.goto(`/admin/inquiries?domain=${name}&status=answered`);
    await expect(card.getByText("Thanks, the owner accepts $9,000.")).toBeVisible();
  });
}

for (const width of [360, 390, 1366]) {
  test(`the domains list at ${width} px: cards on a phone with the table's controls, the table on a desktop`, async ({
    page,
    app,
  }, testInfo) => {
    const tag = `${Date.now().toString(36)}${testInfo.parallelIndex}`;
    const name = `nordhavenpartners-${tag}.com`;
    insertDomain(app.db(), {
      name,
      priceCents: 2_600_000,
      trackingId: `broker-with-a-long-handle-${tag}`,
      ownerEmail: `a.very.long.owner.address.${tag}@portfolio-holdings.example`,
    });
    insertDomain(app.db(), { name: `second-${tag}.com`, priceCents: 123_456_700 });
    await page.setViewportSize({ width, height: 900 });
    await signInAdmin(page);
    await page.goto(`/admin?q=${tag}`);
    const row = page.getByRole("row").filter({ hasText: name });
    const phone = width < 640;
    // The header row is the desktop's; on a phone each value carries its own label.
    await expect(page.getByRole("columnheader", { name: "Owner Email" })).toBeVisible({ visible: !phone });
    await expect(row.getByText("Owner Email", { exact: true })).toBeVisible({ visible: phone });
    await expect(row.getByText("Tracking ID", { exact: true })).toBeVisible({ visible: phone });
    await expect(row.getByRole("link", { name: `$26,000, edit the price of ${name}` })).toBeVisible();
    await expect(row.getByRole("link", { name: `Edit price of ${name}` })).toBeVisible();
    await expect(row.getByRole("link", { name: `Delete ${name}` })).toBeVisible();
    await noSidewaysScroll(page, width);
    if (phone) {
      const box = (await row.boundingBox())!;
      expect(box.x + box.width, "the card fits the screen").toBeLessThanOrEqual(width);
    }
    await screenshot(page, testInfo, "admin-domains", width);

    // The price editor works the same in a card, inside the screen.
    await row.getByRole("link", { name: `Edit price of ${name}` }).click();
    const input = row.getByLabel(`New price for ${name}`);
    await expect(input).toBeVisible();
    const save = row.getByRole("button", { name: "Save", exact: true });
    const saveBox = (await save.boundingBox())!;
    expect(saveBox.x + saveBox.width, "Save is on the screen").toBeLessThanOrEqual(width);
    await noSidewaysScroll(page, width);
    await screenshot(page, testInfo, "admin-domains-editing", width);
    await input.fill("27000");
    await save.click();
    await expect(row.getByRole("link", { name: `$27,000, edit the price of ${name}` })).toBeVisible();
    await expectNoA11yViolations(page);
  });
}

for (const width of WIDTHS) {
  test(`delete asks in the styled dialog, naming the domain, at ${width} px`, async ({
    page,
    app,
    javaScriptOn,
  }, testInfo) => {
    const name = uniqueDomainName("delete-desk");
    insertDomain(app.db(), { name, priceCents: 2_600_000 });
    await page.setViewportSize({ width, height: 900 });
    await signInAdmin(page);
    await page.goto(`/admin?q=${name}`);
    const row = page.getByRole("row").filter({ hasText: name });
    await row.getByRole("link", { name: `Delete ${name}` }).click();
    // With JavaScript a modal over the list; without it, the page's own view: the same words either way.
    const question = javaScriptOn
      ? page.getByRole("dialog", { name: `Delete ${name}?` })
      : page.getByRole("region", { name: `Delete ${name}?` });
    await expect(question).toBeVisible();
    await expect(question.getByText("Are you sure you want to delete this domain?", { exact: true })).toBeVisible();
    await expect(question).toContainText("Listed at $26,000. Paid inquiries for it stay in the inbox.");
    await noSidewaysScroll(page, width);
    await screenshot(page, testInfo, "admin-delete", width);
    await question.getByRole("button", { name: "Delete" }).click();
    if (!javaScriptOn) await expect(page.getByRole("status")).toHaveText("Domain deleted.");
    await expect(page.getByRole("row").filter({ hasText: name })).toHaveCount(0);
    // With JavaScript the row leaves at once and the post follows: wait for the database to say so.
    await expect
      .poll(() => app.db().prepare("SELECT deleted_at FROM domains WHERE domain_name = ?").get(name))
      .toEqual({ deleted_at: expect.any(String) });
  });
}
