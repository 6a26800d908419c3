import { insertPaidInquiry, signInAdmin } from "../support/admin";
import { insertDomain, uniqueDomainName } from "../support/data";
import { expect, expectNoA11yViolations, test } from "../support/fixtures";
import { BUYER, postJson, setFeeCents } from "../support/http";

// The money path in the browser, with JavaScript on and off: a buyer back on an expired inquiry starts
// again at today's fee with the form filled in; the admin sees a refund that stopped and settles it.

test("a buyer returning to an expired inquiry starts again at the current fee, with the form filled in", async ({
  page,
  app,
  javaScriptOn,
}) => {
  setFeeCents(app.db(), 1999);
  const name = uniqueDomainName("expired");
  insertDomain(app.db(), { name, priceCents: 400_000, ownerEmail: "owner@example.test" });
  const short = name.replace(/\.com$/, "");
  const buyer = { ...BUYER, email: `expired-${Date.now()}@buyer.example` };
  const created = await postJson(app, "/api/create-payment-intent", { domain_name: short, customer_info: buyer });
  expect(created.status).toBe(200);
  // A day later the reconciler expired it (set directly here: the expiry itself is tested in money-path.test.ts).
  app
    .db()
    .prepare("UPDATE inquiries SET status = 'failed', expired_at = ? WHERE public_id = ?")
    .run(new Date().toISOString(), created.json.inquiry_id);
  setFeeCents(app.db(), 2499);
  try {
    await page.goto(created.json.redirect);
    await expect(page.getByRole("heading", { level: 1, name: "Domain Inquiry" })).toBeVisible();
    await expect(page.getByRole("alert")).toContainText("This inquiry was not paid within 24 hours and has expired.");
    await expect(page.getByText("One-time inquiry fee: $24.99")).toBeVisible();
    await expect(page.getByLabel("Email Address")).toHaveValue(buyer.email);
    await expect(page.getByLabel("Message to Owner")).toHaveValue(buyer.message);
    await expectNoA11yViolations(page);
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    if (javaScriptOn) await expect(page.getByRole("heading", { level: 1, name: "Complete Payment" })).toBeVisible();
    else await expect(page.getByRole("heading", { level: 1, name: "Checkout" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Pay $24.99" })).toBeVisible();
  } finally {
    setFeeCents(app.db(), 1999);
  }
});

test("a refund that stopped shows under 'Problems to see' and the admin marks it settled", async ({ page, app }) => {
  const name = uniqueDomainName("settle");
  const domainId = insertDomain(app.db(), { name, priceCents: 400_000 });
  const inquiryId = insertPaidInquiry(app.db(), {
    domainId,
    domainName: name,
    email: `settle-${Date.now()}@buyer.example`,
  });
  app
    .db()
    .prepare(
      "UPDATE inquiries SET refund_state = 'gave_up', last_error = 'The refund could not be made: Charge has been disputed' WHERE id = ?",
    )
    .run(inquiryId);
  await signInAdmin(page);
  await page.goto("/admin/inquiries");
  const problems = page.getByRole("region", { name: "Problems to see" });
  const item = problems.getByRole("listitem").filter({ hasText: name });
  await expect(item).toContainText("Refund stopped");
  await expect(item).toContainText("Charge has been disputed");
  await expectNoA11yViolations(page);
  await item.getByRole("button", { name: "Mark settled" }).click();
  await expect(page.getByRole("status")).toHaveText("Marked as settled.");
  await expect(page.getByRole("listitem").filter({ hasText: "Refund stopped" }).filter({ hasText: name })).toHaveCount(
    0,
  );
  expect(app.db().prepare("SELECT refund_state FROM inquiries WHERE id = ?").get(inquiryId)).toEqual({
    refund_state: "settled",
  });
});
