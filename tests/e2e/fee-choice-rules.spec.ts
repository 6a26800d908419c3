import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { startAppServer, startServerAt, type AppServer } from "../support/app-server";
import { expect, expectNoA11yViolations, test } from "../support/fixtures";
import { BUYER, postForm, setFeeCents, waitFor } from "../support/http";
import { DAY_MS, inquiryRow, linkIn, newDomain, payInquiry, setSilencePolicy } from "../support/refund-promise";

// What the buyer's page offers after a silent deadline, and what it refuses (issue 34 items 4 and 5),
// with JavaScript on and off, between the deadline and the scheduler's next pass: here a pass runs only
// when a server starts on the worker's database. An inquiry falls due at once by being paid on a server on
// that database whose clock runs a week and a minute behind (TEST_CLOCK_OFFSET_MS).
test.use({ appEnv: { REFUND_SCHEDULER_INTERVAL_MS: "3600000" } });
const PAST_DEADLINE = 7 * DAY_MS + 60_000;

/** A server on the worker's database a week and a minute behind: what is paid there is past its deadline now. */
async function earlierServer(app: AppServer, use: (earlier: AppServer) => Promise<void>) {
  const earlier = await startServerAt(app, -PAST_DEADLINE);
  try {
    await use(earlier);
  } finally {
    await earlier.stop();
  }
}

/** A refund pass, as the scheduler runs it: a second server on the worker's database, until `offered` has its offer. */
async function runPass(app: AppServer, offered: string) {
  const pass = await startAppServer({ dataDir: app.dataDir, env: app.env });
  try {
    await waitFor(
      () => (inquiryRow(app, offered) as { credit_offered_at?: string | null }).credit_offered_at,
      30_000,
      "the offer",
    );
  } finally {
    await pass.stop();
  }
}
const mailWith = (app: AppServer, kind: string, needle: string) => {
  const mailDir = path.join(app.dataDir, "mail");
  return waitFor(
    () =>
      existsSync(mailDir) &&
      readdirSync(mailDir)
        .filter((f) => f.includes(kind))
        .map((f) => readFileSync(path.join(mailDir, f), "utf8"))
        .find((raw) => raw.includes(needle)),
    10_000,
    `${kind} email`,
  );
};
const linkOf = async (app: AppServer, publicId: string) =>
  linkIn({ raw: await mailWith(app, "buyer_receipt", publicId), from: "", to: [] }, "/inquiry/");

test('switched to "Refund automatically" after the offer: the choice is refused with a message, the form goes', async ({
  page,
  app,
}) => {
  setFeeCents(app.db(), 1999);
  let inquiry!: Awaited<ReturnType<typeof payInquiry>>;
  await earlierServer(app, async (earlier) => {
    inquiry = await payInquiry(earlier, newDomain(app, { prefix: "switch" }));
  });
  const link = await linkOf(app, inquiry.public_id);
  try {
    await runPass(app, inquiry.public_id);
    await page.goto(link);
    await expect(page.getByRole("button", { name: "Refund my fee" })).toBeVisible();
    // Meanwhile the admin saves "Refund automatically".
    setSilencePolicy(app.db(), "refund");
    await page.getByRole("button", { name: "Take a credit instead" }).click();
    await expect(page.getByRole("alert")).toHaveText(
      "Your fee is refunded automatically on this site, so there is nothing to choose.",
    );
    await expectNoA11yViolations(page);
    await page.goto(link);
    await expect(page.getByTestId("inquiry-status")).toHaveText("Closed");
    await expect(page.getByRole("button", { name: "Take a credit instead" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Refund my fee" })).toHaveCount(0);
    expect(inquiryRow(app, inquiry.public_id)).toMatchObject({ status: "paid", fee_choice: null });
  } finally {
    setSilencePolicy(app.db(), "choose");
  }
});

test("an inquiry paid with a credit offers only a new credit", async ({ page, app }) => {
  setFeeCents(app.db(), 1999);
  let earned!: Awaited<ReturnType<typeof payInquiry>>;
  await earlierServer(app, async (earlier) => {
    earned = await payInquiry(earlier, newDomain(app, { prefix: "earned" }));
  });
  const earnedLink = await linkOf(app, earned.public_id);
  await runPass(app, earned.public_id);
  expect((await postForm(app, earnedLink, { intent: "choose-credit" })).status).toBe(303);
  const code = /CR-[2-9A-Z]{4}-[2-9A-Z]{4}-[2-9A-Z]{4}/.exec(await mailWith(app, "credit_issued", earned.email))![0];
  const domain = newDomain(app, { prefix: "withcredit" });
  const email = `withcredit-${domain.id}@buyer.example`;
  let sent!: Awaited<ReturnType<typeof postForm>>;
  await earlierServer(app, async (earlier) => {
    sent = await postForm(earlier, `/payment/${domain.short}`, {
      intent: "inquiry",
      ...BUYER,
      email,
      credit_code: code,
    });
  });
  expect(sent.status).toBe(303);
  const publicId = new URL(sent.headers.get("location")!, app.url).searchParams.get("inquiry")!;
  const link = await linkOf(app, publicId);
  // Past its deadline, before any pass (which would give the new credit itself).
  await page.goto(link);
  await expect(page.getByRole("button", { name: "Refund my fee" })).toHaveCount(0);
  await expect(page.getByText("You paid with a credit, so you get a new one (never money)")).toBeVisible();
  await expectNoA11yViolations(page);
  await page.getByRole("button", { name: "Take a new credit" }).click();
  await expect(page.getByRole("status")).toHaveText("Your credit is ready.");
  await expect(page.getByTestId("inquiry-status")).toHaveText("Credited");
  const fresh = (await page.getByTestId("credit-code").textContent())!;
  expect(fresh).toMatch(/^CR-[2-9A-Z]{4}-[2-9A-Z]{4}-[2-9A-Z]{4}$/);
  expect(fresh).not.toBe(code);
  expect(inquiryRow(app, publicId).status).toBe("paid");
});
