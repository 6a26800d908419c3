import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { AppServer } from "../support/app-server";
import { signInAdmin } from "../support/admin";
import { expect, expectNoA11yViolations, test } from "../support/fixtures";
import { setFeeCents, waitFor } from "../support/http";
import { DAY_MS, inquiryRow, newDomain, onServer, payInquiry, replyLinkIn, testClock } from "../support/refund-promise";

// The owner's "I have replied to this buyer" page, opened from the link in the owner's email (written
// as an .eml file: the worker's server has no SMTP_URL), with JavaScript on and off.
const clock = testClock();
test.use({ appEnv: { TEST_CLOCK_FILE: clock.file, REFUND_SCHEDULER_INTERVAL_MS: "3600000" } });

async function paidInquiryWithLink(app: AppServer) {
  setFeeCents(app.db(), 1999);
  const domain = newDomain(app, { prefix: "reply" });
  const inquiry = await payInquiry(app, domain);
  const mailDir = path.join(app.dataDir, "mail");
  const raw = await waitFor(
    () => {
      if (!existsSync(mailDir)) return null;
      for (const file of readdirSync(mailDir).filter((f) => f.endsWith("owner_inquiry.eml"))) {
        const text = readFileSync(path.join(mailDir, file), "utf8");
        if (text.includes(inquiry.public_id)) return text;
      }
      return null;
    },
    10_000,
    "owner email",
  );
  return { domain, inquiry, link: onServer(replyLinkIn({ raw, from: "", to: [] })) };
}

test("the owner confirms a reply once; the used link then says so", async ({ page, app }) => {
  const { domain, inquiry, link } = await paidInquiryWithLink(app);
  const opened = await page.goto(link);
  expect(opened?.status()).toBe(200);
  await expect(page).toHaveTitle(/^Confirm your reply/);
  await expect(page.getByRole("heading", { level: 1, name: "Confirm your reply" })).toBeVisible();
  await expect(page.getByText(domain.name)).toBeVisible();
  await expect(page.getByText(/This link works once and expires on/)).toBeVisible();
  await expectNoA11yViolations(page);
  // Opening the page changed nothing.
  expect(inquiryRow(app, inquiry.public_id).answered_at).toBeNull();

  await page.getByRole("button", { name: "I have replied to this buyer" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Thank you" })).toBeVisible();
  await expect(page.getByRole("status")).toHaveText(`The inquiry from Ada Buyer about ${domain.name} is marked as answered.`);
  await expectNoA11yViolations(page);
  expect(inquiryRow(app, inquiry.public_id)).toMatchObject({ status: "paid", answered_via: "owner_link" });

  const reused = await page.goto(link);
  expect(reused?.status()).toBe(410);
  await expect(page.getByRole("heading", { level: 1, name: "This link has already been used" })).toBeVisible();
  await expect(page.getByRole("alert")).toContainText(`The inquiry about ${domain.name} was marked as answered on`);
  await expect(page.getByRole("button", { name: "I have replied to this buyer" })).toHaveCount(0);
  await expectNoA11yViolations(page);
});

test("a forged link is refused with a clear page", async ({ page, app }) => {
  const { inquiry, link } = await paidInquiryWithLink(app);
  const forged = link.replace(/signature=([A-Za-z0-9_-])/, (_m, c: string) => `signature=${c === "Q" ? "R" : "Q"}`);
  const response = await page.goto(forged);
  expect(response?.status()).toBe(403);
  await expect(page.getByRole("heading", { level: 1, name: "This link is not valid" })).toBeVisible();
  await expect(page.getByRole("button", { name: "I have replied to this buyer" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Back to Home" })).toHaveAttribute("href", "/");
  await expectNoA11yViolations(page);
  expect(inquiryRow(app, inquiry.public_id).answered_at).toBeNull();
});

test("a link opened before the deadline but confirmed after it is refused", async ({ page, app }) => {
  const { inquiry, link } = await paidInquiryWithLink(app);
  await page.goto(link);
  await expect(page.getByRole("button", { name: "I have replied to this buyer" })).toBeVisible();
  try {
    await clock.set(7 * DAY_MS + 1_000);
    await page.getByRole("button", { name: "I have replied to this buyer" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "This link has expired" })).toBeVisible();
    await expect(page.getByRole("alert")).toContainText("the buyer's fee is being refunded automatically");
    await expectNoA11yViolations(page);
    const reopened = await page.goto(link);
    expect(reopened?.status()).toBe(410);
  } finally {
    await clock.set(0);
  }
  expect(inquiryRow(app, inquiry.public_id).answered_at).toBeNull();
});

test("after the admin refunds or marks answered in the inbox, the owner's link says what happened", async ({ page, app }) => {
  const refunded = await paidInquiryWithLink(app);
  const answered = await paidInquiryWithLink(app);
  await signInAdmin(page);
  await page.goto(`/admin/inquiries?domain=${refunded.domain.name}`);
  await page.getByRole("link", { name: /^Refund \$/ }).click();
  await page.getByRole("button", { name: /^Yes, refund \$/ }).click();
  await expect(page.getByRole("status")).toHaveText("Inquiry refunded.");
  await page.goto(`/admin/inquiries?domain=${answered.domain.name}`);
  await page.getByRole("button", { name: "Mark answered" }).click();
  await expect(page.getByRole("status")).toHaveText("Inquiry marked as answered.");

  const afterRefund = await page.goto(refunded.link);
  expect(afterRefund?.status()).toBe(410);
  await expect(page.getByRole("heading", { level: 1, name: "This inquiry was refunded" })).toBeVisible();
  await expect(page.getByText(/reply window/)).toHaveCount(0);
  const afterAnswer = await page.goto(answered.link);
  expect(afterAnswer?.status()).toBe(410);
  await expect(page.getByRole("heading", { level: 1, name: "This inquiry is already answered" })).toBeVisible();
  await expect(page.getByRole("alert")).toContainText("The site's administrator marked the inquiry");
  await expectNoA11yViolations(page);
});
