import { loginLimitedText } from "../../app/lib/admin-forms";
import { TEST_ADMIN } from "../support/admin";
import { removeDataDir, startAppServer, type AppServer } from "../support/app-server";
import { expect, test } from "../support/fixtures";
import { testClock } from "../support/refund-promise";

// Its own server and clock: ten failed sign-ins lock out the address (127.0.0.1) for everyone, and the
// test moves the server's clock to see the wait shrink.
let server: AppServer | undefined;
const clock = testClock();
test.beforeEach(async () => {
  server = await startAppServer({ env: { ADMIN_EMAIL: TEST_ADMIN.email, ADMIN_PASSWORD: TEST_ADMIN.password, SEED_DEMO: "false", TEST_CLOCK_FILE: clock.file } });
});
test.afterEach(async () => {
  await server?.stop();
  if (server) removeDataDir(server);
});

test("the lockout message gives the wait that is left, as Retry-After does", async ({ page }) => {
  test.setTimeout(120_000);
  const url = new URL("/admin", server!.url).href;
  for (let i = 0; i < 10; i++) {
    const wrong = await fetch(url, { method: "POST", redirect: "manual", body: new URLSearchParams({ intent: "login", email: `nobody${i}@example.test`, password: "wrong-password" }) });
    expect(wrong.status).toBe(401);
  }
  await page.goto(url);
  /** Signs in through the form; returns the Retry-After of the refusal. */
  const signIn = async () => {
    await page.getByLabel("Email").fill(TEST_ADMIN.email);
    await page.getByLabel("Password").fill(TEST_ADMIN.password);
    const [response] = await Promise.all([
      page.waitForResponse((reply) => reply.request().method() === "POST"),
      page.getByRole("button", { name: "Sign In" }).click(),
    ]);
    expect(response.status()).toBe(429);
    return Number(await response.headerValue("retry-after"));
  };
  const first = await signIn();
  expect(first).toBeGreaterThan(840);
  await expect(page.getByRole("alert")).toHaveText(loginLimitedText(first));
  await expect(page.getByRole("alert")).toHaveText("Too many failed sign-in attempts. Please wait 15 minutes and try again.");

  await clock.advance((first - 270) * 1000); // about 4.5 minutes left
  const later = await signIn();
  expect(later).toBeLessThanOrEqual(270);
  await expect(page.getByRole("alert")).toHaveText(loginLimitedText(later));
  await expect(page.getByRole("alert")).toContainText("Please wait 5 minutes");
});
