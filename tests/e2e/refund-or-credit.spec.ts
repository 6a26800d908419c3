import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { startServerAt } from "../support/app-server";
import { expect, expectNoA11yViolations, test } from "../support/fixtures";
import { setFeeCents, waitFor } from "../support/http";
import { DAY_MS, inquiryRow, linkIn, newDomain, payInquiry } from "../support/refund-promise";

// Refund or credit (issue 23 item 3) with JavaScript on and off: the owner stays silent past the
// deadline (the inquiry is paid on a server on the worker's database whose clock runs a week and a minute
// behind), the buyer takes a credit on their page and sees its code once.
test.use({ appEnv: { REFUND_SCHEDULER_INTERVAL_MS: "200" } });

test("after a silent deadline the buyer takes a credit, sees its code once and pays a second inquiry with it", async ({
  page,
  app,
}) => {
  setFeeCents(app.db(), 1999);
  const domain = newDomain(app, { prefix: "credit" });
  const email = `credit-${domain.id}@buyer.example`;
  const earlier = await startServerAt(app, -(7 * DAY_MS + 60_000));
  const inquiry = await payInquiry(earlier, domain, { email }).finally(() => earlier.stop());
  const mailDir = path.join(app.dataDir, "mail");
  const receipt = await waitFor(
    () =>
      existsSync(mailDir) &&
      readdirSync(mailDir)
        .map((f) => readFileSync(path.join(mailDir, f), "utf8"))
        .find((raw) => raw.includes(inquiry.public_id) && raw.includes("Receipt")),
    10_000,
    "receipt",
  );
  const link = linkIn({ raw: receipt, from: "", to: [] }, "/inquiry/");
  // The worker's server's next pass, past the deadline, makes the offer (and emails it).
  await waitFor(
    () => (inquiryRow(app, inquiry.public_id) as { credit_offered_at?: string | null }).credit_offered_at,
    10_000,
    "the offer",
  );
  await page.goto(link);
  await expect(page.getByTestId("inquiry-status")).toHaveText("Closed");
  await expect(page.getByRole("button", { name: "Refund my fee" })).toBeVisible();
  await expectNoA11yViolations(page);
  await page.getByRole("button", { name: "Take a credit instead" }).click();
  await expect(page.getByRole("status")).toHaveText("Your credit is ready.");
  await expect(page.getByTestId("inquiry-status")).toHaveText("Credited");
  const code = (await page.getByTestId("credit-code").textContent())!;
  expect(code).toMatch(/^CR-[2-9A-Z]{4}-[2-9A-Z]{4}-[2-9A-Z]{4}$/);
  await expect(page.getByRole("button", { name: "Refund my fee" })).toHaveCount(0);
  await expectNoA11yViolations(page);
  await page.goto(link);
  await expect(page.getByText("You took a credit for this fee. Its code was emailed to you.")).toBeVisible();
  await expect(page.getByText(code)).toHaveCount(0);
  expect(inquiryRow(app, inquiry.public_id).status).toBe("paid");

  // The credit pays an inquiry on a second domain, typed in lower case, without a card.
  const second = newDomain(app, { prefix: "spend" });
  await page.goto(`/payment/${second.short}`);
  await page.getByLabel("Full Name").fill("Ada Buyer");
  await page.getByLabel("Email Address").fill(email);
  await page.getByLabel("Message to Owner").fill("Paid with my credit.");
  await page.getByLabel("Credit code").fill(code.toLowerCase());
  await page.getByRole("button", { name: "Continue to Payment" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();
  expect(
    (app.db().prepare("SELECT inquiry_count AS n FROM domains WHERE id = ?").get(second.id) as { n: number }).n,
  ).toBe(1);

  // Used: the same code again is refused, and the form keeps what was typed.
  await page.goto(`/payment/${second.short}`);
  await page.getByLabel("Full Name").fill("Ada Buyer");
  await page.getByLabel("Email Address").fill(email);
  await page.getByLabel("Message to Owner").fill("Again.");
  await page.getByLabel("Credit code").fill(code);
  await page.getByRole("button", { name: "Continue to Payment" }).click();
  await expect(page.getByRole("alert")).toContainText("That credit code is unknown, expired or already used.");
  await expect(page.getByLabel("Message to Owner")).toHaveValue("Again.");
  await expect(page.getByLabel("Credit code")).toHaveValue(code);
  await expectNoA11yViolations(page);
});
