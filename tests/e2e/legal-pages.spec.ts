import { signInAdmin } from "../support/admin";
import { insertDomain, uniqueDomainName } from "../support/data";
import { expect, expectNoA11yViolations, test } from "../support/fixtures";

// Issue #26 item 5: a footer on every public page with the operator's contact and the Terms, Privacy
// and Refund policy pages; the pages are admin-editable, Markdown rendered safely, defaults from settings.

const CONTACT = "hello@operator.example";

const PAGES = [
  { link: "Terms", path: "/terms" },
  { link: "Privacy", path: "/privacy" },
  { link: "Refund policy", path: "/refunds" },
];

// Back to a new site's "Let the buyer choose refund or credit" for the other specs on this worker's server.
test.afterEach(({ app }) => {
  app.db().prepare("DELETE FROM settings WHERE key = 'silence_policy'").run();
});

test("every public page has the footer; its pages exist, state the refund promise and pass axe", async ({
  page,
  app,
}, testInfo) => {
  const name = uniqueDomainName("footer");
  insertDomain(app.db(), { name, priceCents: 500_000 });
  const setting = app
    .db()
    .prepare(
      "INSERT INTO settings (key, value, created_at, updated_at) VALUES (?, ?, '', '') ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    );
  setting.run("response_window_days", "9");
  // "Refund automatically" (a new site lets the buyer choose refund or credit: fee-promise.test.ts has that wording).
  setting.run("silence_policy", "refund");
  setting.run("contact_email", CONTACT);
  for (const path of [
    "/",
    `/domain/${name.replace(/\.com$/, "")}`,
    `/payment/${name.replace(/\.com$/, "")}`,
    "/contact/nowhere-at-all",
  ]) {
    await page.goto(path);
    const footer = page.getByRole("contentinfo");
    await expect(footer.getByRole("link", { name: CONTACT })).toHaveAttribute("href", `mailto:${CONTACT}`);
    for (const { link, path: target } of PAGES)
      await expect(footer.getByRole("link", { name: link })).toHaveAttribute("href", target);
  }
  for (const width of [390, 1366]) {
    await page.setViewportSize({ width, height: 900 });
    for (const { link, path } of PAGES) {
      await page.goto("/");
      await page.getByRole("contentinfo").getByRole("link", { name: link }).click();
      await expect(page).toHaveURL(path);
      await expect(page.getByRole("heading", { level: 1, name: link })).toBeVisible();
      if (path !== "/privacy")
        await expect(page.getByText("Refunded automatically if the owner doesn't reply within 9 days.")).toBeVisible();
      await expect(page.getByRole("main").getByText(CONTACT)).toBeVisible();
      await testInfo.attach(`${path.slice(1)}-${width}px-${testInfo.project.name}.png`, {
        body: await page.screenshot({ fullPage: true }),
        contentType: "image/png",
      });
      if (width === 390) await expectNoA11yViolations(page);
    }
  }
});

test("the admin sets the contact address and rewrites the Terms in Markdown; HTML in it is shown, not run", async ({
  page,
}) => {
  await signInAdmin(page);
  await page.getByRole("link", { name: "Edit the Terms, Privacy and Refund policy pages" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Pages" })).toBeVisible();
  await page.getByLabel("Contact address").fill("not an address");
  await page.evaluate(() => document.getElementById("contact-email")?.closest("form")?.setAttribute("novalidate", ""));
  await page.getByRole("button", { name: "Save contact address" }).click();
  await expect(page.getByRole("alert")).toContainText("Enter an email address");
  await expect(page.getByLabel("Contact address")).toHaveAttribute("aria-invalid", "true");
  await page.getByLabel("Contact address").fill(CONTACT);
  await page.getByRole("button", { name: "Save contact address" }).click();
  await expect(page.getByText("Contact address saved.")).toBeVisible();
  await expect(page.getByRole("contentinfo").getByRole("link", { name: CONTACT })).toBeVisible();
  const text = `## Our terms ${test.info().project.name}\n\nBuy **only** what you need.\n\n- one <script>alert(1)</script>\n- [mail us](mailto:${CONTACT})`;
  await page.getByLabel("Terms").fill(text);
  await page.getByRole("button", { name: "Save Terms" }).click();
  await expect(page.getByText("Terms saved.")).toBeVisible();
  await page.goto("/terms");
  await expect(page.getByRole("heading", { level: 2, name: `Our terms ${test.info().project.name}` })).toBeVisible();
  await expect(page.locator("main strong")).toHaveText("only");
  await expect(page.getByRole("listitem").first()).toHaveText("one <script>alert(1)</script>");
  await expect(page.locator("main script")).toHaveCount(0);
  await expect(page.getByRole("link", { name: "mail us" })).toHaveAttribute("href", `mailto:${CONTACT}`);
  await expectNoA11yViolations(page);

  // Emptied, the page shows its default again.
  await page.goto("/admin/pages");
  await page.getByLabel("Terms").fill("");
  await page.getByRole("button", { name: "Save Terms" }).click();
  await expect(page.getByText("Terms saved.")).toBeVisible();
  await page.goto("/terms");
  await expect(page.getByRole("heading", { level: 2, name: "The service" })).toBeVisible();
});
