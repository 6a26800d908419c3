import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { restartAt, type AppServer } from "../support/app-server";
import { signInAdmin } from "../support/admin";
import { expect, expectNoA11yViolations, test } from "../support/fixtures";
import { postForm, waitFor } from "../support/http";
import { DAY_MS, inquiryRow, linkIn, paidInquiryWithLinks } from "../support/refund-promise";

// The inquiry's conversation (issue 23), opened from the links in the emails (written as .eml files:
// the worker's server has no SMTP_URL), with JavaScript on and off.
test.use({ appEnv: { REFUND_SCHEDULER_INTERVAL_MS: "3600000" } });

/** The newest email of `kind` that mentions `needle`, as a mail program would read it. */
function mailFile(app: AppServer, kind: string, needle: string) {
  const mailDir = path.join(app.dataDir, "mail");
  return waitFor(
    () => {
      if (!existsSync(mailDir)) return null;
      for (const file of readdirSync(mailDir)
        .filter((f) => f.includes(kind))
        .reverse()) {
        const raw = readFileSync(path.join(mailDir, file), "utf8");
        if (raw.includes(needle)) return { raw, from: "", to: [] };
      }
      return null;
    },
    10_000,
    `${kind} email`,
  );
}

test("the owner replies from the email's link; the buyer reads it and answers; the owner sees the answer", async ({
  page,
  app,
}) => {
  const { domain, inquiry, ownerLink, buyerLink, email } = await paidInquiryWithLinks(app, "reply");
  const opened = await page.goto(ownerLink);
  expect(opened?.status()).toBe(200);
  await expect(
    page.getByRole("heading", { level: 1, name: `Inquiry from Ada Buyer about ${domain.name}` }),
  ).toBeVisible();
  await expect(page.getByTestId("inquiry-status")).toHaveText("Waiting for the owner's reply");
  await expectNoA11yViolations(page);
  expect(inquiryRow(app, inquiry.public_id).answered_at).toBeNull();

  // A reply of spaces only is refused on the server, with a message.
  await page.getByLabel("Your reply to the buyer").fill("   ");
  await page.getByRole("button", { name: "Send reply" }).click();
  await expect(page.getByRole("alert")).toHaveText("Write your reply before sending it.");

  await page.getByLabel("Your reply to the buyer").fill("Hello Ada, the domain is yours for $20,000.");
  await page.getByRole("button", { name: "Send reply" }).click();
  await expect(page.getByRole("status")).toHaveText("Your reply was sent.");
  await expect(page.getByTestId("inquiry-status")).toHaveText("The owner replied");
  await expect(page.getByLabel("Your reply to the buyer")).toHaveValue("");
  await expect(page.getByRole("listitem").filter({ hasText: "the domain is yours for $20,000" })).toContainText("You");
  await expectNoA11yViolations(page);
  expect(inquiryRow(app, inquiry.public_id)).toMatchObject({ answered_via: "page" });
  // The buyer's email links back to their page.
  expect(linkIn(await mailFile(app, "message_to_buyer", email), "/inquiry/")).toBe(buyerLink);

  await page.goto(buyerLink);
  await expect(page.getByTestId("inquiry-status")).toHaveText("The owner replied");
  await expect(page.getByRole("listitem").filter({ hasText: "the domain is yours for $20,000" })).toContainText(
    "The owner",
  );
  await page.getByLabel("Your reply to the owner").fill("Would you take $15,000?");
  await page.getByRole("button", { name: "Send reply" }).click();
  await expect(page.getByRole("status")).toHaveText("Your reply was sent.");
  await expect(page.getByRole("listitem").filter({ hasText: "Would you take $15,000?" })).toContainText("You");
  await expectNoA11yViolations(page);

  await page.goto(linkIn(await mailFile(app, "message_to_owner", "Would you take $15,000?"), "/owner-reply/"));
  await expect(page.getByRole("listitem").filter({ hasText: "Would you take $15,000?" })).toContainText("Ada Buyer");
});

test("a buyer's many messages never keep the owner from replying (each side has its own limit)", async ({
  page,
  app,
}) => {
  const { inquiry, ownerLink, buyerLink } = await paidInquiryWithLinks(app, "reply");
  // INQUIRY_MESSAGES_PER_HOUR is 20: the buyer uses up their side's.
  for (let i = 1; i <= 20; i++)
    expect((await postForm(app, buyerLink, { intent: "reply", message: `Question ${i}?` })).status).toBe(303);
  expect((await postForm(app, buyerLink, { intent: "reply", message: "Question 21?" })).status).toBe(429);
  await page.goto(ownerLink);
  await page.getByLabel("Your reply to the buyer").fill("Here are my answers to all of your questions.");
  await page.getByRole("button", { name: "Send reply" }).click();
  await expect(page.getByRole("status")).toHaveText("Your reply was sent.");
  await expect(page.getByTestId("inquiry-status")).toHaveText("The owner replied");
  expect(inquiryRow(app, inquiry.public_id)).toMatchObject({ answered_via: "page" });
});

test('"I have replied by email" marks the inquiry answered; the conversation says so', async ({ page, app }) => {
  const { inquiry, ownerLink, buyerLink } = await paidInquiryWithLinks(app, "reply");
  await page.goto(ownerLink);
  await page.getByRole("button", { name: "I have replied by email" }).click();
  await expect(page.getByRole("status")).toHaveText("Thank you: the inquiry is marked as answered by email.");
  await expect(page.getByText("The owner replied by email.")).toBeVisible();
  await expect(page.getByRole("button", { name: "I have replied by email" })).toHaveCount(0);
  expect(inquiryRow(app, inquiry.public_id)).toMatchObject({ status: "paid", answered_via: "owner_link" });
  await page.goto(buyerLink);
  await expect(page.getByTestId("inquiry-status")).toHaveText("The owner replied");
  await expect(page.getByText("The owner replied by email.")).toBeVisible();
});

test("a forged link is the site's plain 404", async ({ page, app }) => {
  const { inquiry, ownerLink } = await paidInquiryWithLinks(app, "reply");
  const forged = ownerLink.replace(/sig=([A-Za-z0-9_-])/, (_m, c: string) => `sig=${c === "Q" ? "R" : "Q"}`);
  const response = await page.goto(forged);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("button", { name: "Send reply" })).toHaveCount(0);
  expect(inquiryRow(app, inquiry.public_id).answered_at).toBeNull();
});

test("a reply written before the deadline but sent after it is refused and kept", async ({ page, app }) => {
  const { inquiry, ownerLink } = await paidInquiryWithLinks(app, "reply");
  await page.goto(ownerLink);
  await page.getByLabel("Your reply to the buyer").fill("Sorry for the delay.");
  try {
    // The worker's server restarts on the same port and database a week and a second later: the open
    // page's post reaches it past the deadline.
    await restartAt(app, 7 * DAY_MS + 1_000);
    await page.getByRole("button", { name: "Send reply" }).click();
    await expect(page.getByRole("alert")).toHaveText("This inquiry is closed: your reply was not sent.");
    await expect(page.getByLabel("Your reply to the buyer")).toHaveValue("Sorry for the delay.");
    await expect(page.getByTestId("inquiry-status")).toHaveText("Closed");
    await expectNoA11yViolations(page);
  } finally {
    await restartAt(app, 0);
  }
  expect(inquiryRow(app, inquiry.public_id).answered_at).toBeNull();
});

test("after the admin refunds in the inbox, the owner's page says Refunded and closed", async ({ page, app }) => {
  const refunded = await paidInquiryWithLinks(app, "reply");
  await signInAdmin(page);
  await page.goto(`/admin/inquiries?domain=${refunded.domain.name}`);
  await page.getByRole("link", { name: /^Refund \$/ }).click();
  await page.getByRole("button", { name: /^Yes, refund \$/ }).click();
  await expect(page.getByRole("status")).toHaveText("Inquiry refunded.");
  await page.goto(refunded.ownerLink);
  await expect(page.getByTestId("inquiry-status")).toHaveText("Refunded");
  await expect(page.getByText("This inquiry is closed")).toBeVisible();
  await expect(page.getByRole("button", { name: "Send reply" })).toHaveCount(0);
  await expectNoA11yViolations(page);
});

test("the admin replies as the owner from the inbox; the buyer's page says the site sent it", async ({ page, app }) => {
  const { domain, inquiry, buyerLink } = await paidInquiryWithLinks(app, "reply");
  await signInAdmin(page);
  await page.goto(`/admin/inquiries?domain=${domain.name}`);
  const card = page.getByRole("article", { name: new RegExp(`Ada Buyer about ${domain.name.replace(/\./g, "\\.")}`) });
  await card.getByText(/^Conversation: Waiting for the owner's reply/).click();
  await card.getByLabel("Reply as the owner to Ada Buyer").fill("The owner is away until Monday.");
  await card.getByRole("button", { name: "Send reply" }).click();
  await expect(page.getByRole("status")).toHaveText("Reply sent to the buyer.");
  await expect(card.getByText(/^Conversation: The owner replied/)).toBeVisible();
  await expect(card.getByText("The owner is away until Monday.")).toBeVisible();
  await expectNoA11yViolations(page);
  expect(inquiryRow(app, inquiry.public_id)).toMatchObject({ answered_via: "site" });

  await page.goto(buyerLink);
  await expect(page.getByTestId("inquiry-status")).toHaveText("The owner replied");
  await expect(page.getByRole("listitem").filter({ hasText: "The owner is away until Monday." })).toContainText(
    "Sent by the site on behalf of the owner.",
  );
});
