import { loginLimitedText } from "../../app/lib/admin-forms";
import { TEST_ADMIN } from "../support/admin";
import { removeDataDir, startAppServer, startServerAt, type AppServer } from "../support/app-server";
import { expect, test } from "../support/fixtures";

// Its own server: ten failed sign-ins lock out the address (127.0.0.1) for everyone. The counts are kept
// in the database (RATE_LIMIT_STORE, as on PostgreSQL), so a second server on it, started minutes later
// (TEST_CLOCK_OFFSET_MS), shows the wait shrunk. (The memory store's wait shrinking, on both stores:
// tests/in-process/admin-sign-in-lockout.test.ts.)
let server: AppServer | undefined;
let later: AppServer | undefined;
test.beforeEach(async () => {
  server = await startAppServer({
    env: {
      ADMIN_EMAIL: TEST_ADMIN.email,
      ADMIN_PASSWORD: TEST_ADMIN.password,
      SEED_DEMO: "false",
      RATE_LIMIT_STORE: "database",
    },
  });
});
test.afterEach(async () => {
  await later?.stop();
  later = undefined;
  await server?.stop();
  if (server) removeDataDir(server);
});

test("the lockout message gives the wait that is left, as Retry-After does", async ({ page }) => {
  test.setTimeout(120_000);
  const url = new URL("/admin", server!.url).href;
  for (let i = 0; i < 10; i++) {
    const wrong = await fetch(url, {
      method: "POST",
      redirect: "manual",
      body: new URLSearchParams({ intent: "login", email: `nobody${i}@example.test`, password: "wrong-password" }),
    });
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
  await expect(page.getByRole("alert")).toHaveText(
    "Too many failed sign-in attempts. Please wait 15 minutes and try again.",
  );

  later = await startServerAt(server!, (first - 270) * 1000); // about 4.5 minutes left
  await page.goto(new URL("/admin", later.url).href);
  const left = await signIn();
  expect(left).toBeGreaterThan(240);
  expect(left).toBeLessThanOrEqual(270);
  await expect(page.getByRole("alert")).toHaveText(loginLimitedText(left));
  await expect(page.getByRole("alert")).toContainText("Please wait 5 minutes");
});

test.describe("the admin's own browser (device cookie)", () => {
  let proxied: AppServer | undefined;
  test.afterEach(async () => {
    await proxied?.stop();
    if (proxied) removeDataDir(proxied);
  });

  test("still signs in while strangers' failures lock the email out", async ({ browser, javaScriptOn }) => {
    test.setTimeout(120_000);
    // TRUST_PROXY=loopback: the strangers' posts below claim other addresses; the browser is 127.0.0.1.
    proxied = await startAppServer({
      env: {
        ADMIN_EMAIL: TEST_ADMIN.email,
        ADMIN_PASSWORD: TEST_ADMIN.password,
        SEED_DEMO: "false",
        TRUST_PROXY: "loopback",
      },
    });
    const url = new URL("/admin", proxied.url).href;
    const context = await browser.newContext({ javaScriptEnabled: javaScriptOn });
    const page = await context.newPage();
    const signIn = async (expected: number) => {
      await page.goto(url);
      await page.getByLabel("Email").fill(TEST_ADMIN.email);
      await page.getByLabel("Password").fill(TEST_ADMIN.password);
      const [response] = await Promise.all([
        page.waitForResponse((reply) => reply.request().method() === "POST"),
        page.getByRole("button", { name: "Sign In" }).click(),
      ]);
      // With JavaScript the form posts to /admin.data: the device cookie must reach it there too.
      expect(new URL(response.url()).pathname).toBe(javaScriptOn ? "/admin.data" : "/admin");
      expect(response.status()).toBe(expected);
    };
    await signIn(javaScriptOn ? 202 : 303);
    await expect(page.getByRole("heading", { level: 1, name: "Admin Panel" })).toBeVisible();
    await page.getByRole("button", { name: "Sign Out", exact: true }).click();
    await expect(page.getByLabel("Email")).toBeVisible();

    // Someone who knows the address uses up its failures from elsewhere.
    for (let i = 0; i < 10; i++) {
      const wrong = await fetch(url, {
        method: "POST",
        redirect: "manual",
        headers: { "X-Forwarded-For": `10.9.0.${i}` },
        body: new URLSearchParams({ intent: "login", email: TEST_ADMIN.email, password: "wrong-password" }),
      });
      expect(wrong.status).toBe(401);
    }
    const stranger = await fetch(url, {
      method: "POST",
      redirect: "manual",
      headers: { "X-Forwarded-For": "10.9.1.1" },
      body: new URLSearchParams({ intent: "login", email: TEST_ADMIN.email, password: TEST_ADMIN.password }),
    });
    expect(stranger.status).toBe(429);

    // The browser that signed in before is not locked out.
    await signIn(javaScriptOn ? 202 : 303);
    await expect(page.getByRole("heading", { level: 1, name: "Admin Panel" })).toBeVisible();
    await context.close();
  });
});
