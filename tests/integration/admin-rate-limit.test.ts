import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_ADMIN } from "../support/admin";
import { removeDataDir, startAppServer, type AppServer } from "../support/app-server";
import { http, visibleText } from "./admin-helpers";

// Its own server: these tests use up the limits. TRUST_PROXY lets each request claim a client address.
let app: AppServer;
beforeAll(async () => {
  app = await startAppServer({ env: { ADMIN_EMAIL: TEST_ADMIN.email, ADMIN_PASSWORD: TEST_ADMIN.password, TRUST_PROXY: "true", SEED_DEMO: "false", PUBLIC_URL: "https://domains.example", PAYMENTS: "test" } });
});
afterAll(async () => {
  await app.stop();
  removeDataDir(app);
});

const login = (ip: string, email: string, password: string) =>
  http(app, "/admin", { form: { intent: "login", email, password }, headers: { "X-Forwarded-For": ip } });

describe("behind https (PUBLIC_URL)", () => {
  it("marks the session cookie Secure", async () => {
    const response = await login("10.0.0.1", TEST_ADMIN.email, TEST_ADMIN.password);
    expect(response.status).toBe(303);
    expect(response.headers.get("set-cookie")).toMatch(/; Secure/i);
  });
});

// Each failed sign-in costs a full scrypt run (slow on a busy machine).
describe("failed sign-ins are limited to 10 in 15 minutes", { timeout: 180_000 }, () => {
  it("per email: the 11th attempt is refused with 429 even from a new address and with the right password", async () => {
    for (let i = 0; i < 10; i++) expect((await login(`10.0.1.${i}`, TEST_ADMIN.email, `wrong-${i}-password`)).status).toBe(401);
    const limited = await login("10.0.1.200", TEST_ADMIN.email, TEST_ADMIN.password);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(800);
    expect(visibleText(limited.body)).toContain("Too many failed sign-in attempts. Please wait 15 minutes and try again.");
    expect(limited.headers.get("set-cookie")).toBeNull();
  });

  it("per address: ten failures with different emails block that address, not others", async () => {
    for (let i = 0; i < 10; i++) expect((await login("10.0.2.1", `nobody${i}@example.test`, "wrong-password")).status).toBe(401);
    expect((await login("10.0.2.1", `someone-else@example.test`, "wrong-password")).status).toBe(429);
    expect((await login("10.0.2.2", `someone-else@example.test`, "wrong-password")).status).toBe(401);
  });
});
