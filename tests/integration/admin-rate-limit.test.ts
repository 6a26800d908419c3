import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_ADMIN } from "../support/admin";
import {
  REAL_PASSWORD_HASH_COST,
  removeDataDir,
  startAppServer,
  TEST_PASSWORD_HASH_COST,
  type AppServer,
} from "../support/app-server";
import { insertDomain, uniqueDomainName } from "../support/data";
import { waitFor } from "../support/wait";
import { http, visibleText } from "./admin-helpers";

// Its own server: these tests use up the limits. TRUST_PROXY lets each request claim a client address.
let app: AppServer;
let domainPath = "";
/** The admin's own browser: it signed in before the attack began. */
let device = "";
beforeAll(() => startLimitsServer(TEST_PASSWORD_HASH_COST));
afterAll(stopLimitsServer);

/** The server and a name for sale on it; `passwordHashCost` is PASSWORD_HASH_COST. */
async function startLimitsServer(passwordHashCost: string): Promise<void> {
  app = await startAppServer({
    env: {
      ADMIN_EMAIL: TEST_ADMIN.email,
      ADMIN_PASSWORD: TEST_ADMIN.password,
      TRUST_PROXY: "true",
      SEED_DEMO: "false",
      PUBLIC_URL: "https://domains.example",
      PAYMENTS: "test",
      PASSWORD_HASH_COST: passwordHashCost,
    },
  });
  domainPath = `/domain/${uniqueDomainName("limits").replace(/\.com$/, "")}`;
  insertDomain(app.db(), { name: `${domainPath.slice("/domain/".length)}.com`, priceCents: 100_000 });
}

async function stopLimitsServer(): Promise<void> {
  await app.stop();
  removeDataDir(app);
}

const login = (ip: string, email: string, password: string, cookie?: string) =>
  http(app, "/admin", {
    form: { intent: "login", email, password },
    headers: { "X-Forwarded-For": ip, ...(cookie ? { Cookie: cookie } : {}) },
  });

/** The admin_device cookie a successful sign-in gives the admin's browser. */
function deviceCookieOf(setCookie: string | null): string {
  const cookie = /admin_device=[^;,]+/.exec(setCookie ?? "")?.[0];
  if (!cookie) throw new Error(`no device cookie in ${setCookie}`);
  return cookie;
}

describe("behind https (PUBLIC_URL)", () => {
  it("marks the session and device cookies Secure", async () => {
    const response = await login("10.0.0.1", TEST_ADMIN.email, TEST_ADMIN.password);
    expect(response.status).toBe(303);
    const cookies = response.headers.getSetCookie();
    device = deviceCookieOf(response.headers.get("set-cookie"));
    expect(cookies.find((cookie) => cookie.startsWith("admin_session="))).toMatch(/; Secure/i);
    // Path=/: the JavaScript sign-in posts to /admin.data. A copy from before (Path=/admin) is cleared.
    expect(cookies.find((cookie) => /^admin_device=[^;]/.test(cookie))).toMatch(/; Path=\/; .*Secure/i);
    expect(cookies.find((cookie) => /^admin_device=;/.test(cookie))).toMatch(/; Max-Age=0; Path=\/admin;/i);
  });
});

describe("failed sign-ins are limited to 10 in 15 minutes", { timeout: 180_000 }, () => {
  it("per email, from browsers the admin never signed in with: the 11th attempt is refused with 429", async () => {
    for (let i = 0; i < 10; i++)
      expect((await login(`10.0.1.${i}`, TEST_ADMIN.email, `wrong-${i}-password`)).status).toBe(401);
    const limited = await login("10.0.1.200", TEST_ADMIN.email, TEST_ADMIN.password);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(800);
    expect(visibleText(limited.body)).toContain(
      "Too many failed sign-in attempts. Please wait 15 minutes and try again.",
    );
    expect(limited.headers.get("set-cookie")).toBeNull();
  });

  it("but those failures do not lock the admin's own browser out, from any address (OWASP device cookies)", async () => {
    // The email is locked for strangers (the test above); the browser that signed in before is not. (The wait
    // shrinking as time passes: tests/in-process/admin-sign-in-lockout.test.ts.)
    const own = await login("10.0.1.201", TEST_ADMIN.email, TEST_ADMIN.password, device);
    expect(own.status).toBe(303);
    expect(own.headers.get("set-cookie")).toMatch(/admin_session=/);
    // That browser has a limit of its own: 10 wrong passwords from it, then it waits too.
    for (let i = 0; i < 10; i++)
      expect((await login(`10.0.3.${i}`, TEST_ADMIN.email, "wrong-password", device)).status).toBe(401);
    expect((await login("10.0.3.100", TEST_ADMIN.email, TEST_ADMIN.password, device)).status).toBe(429);
    // A device cookie made up by the attacker is not the admin's: it is refused like no cookie.
    expect(
      (
        await login(
          "10.0.3.101",
          TEST_ADMIN.email,
          TEST_ADMIN.password,
          "admin_device=eyJlbWFpbCI6ImFkbWluQGV4YW1wbGUudGVzdCIsImlkIjoieCJ9",
        )
      ).status,
    ).toBe(429);
  });

  it("per address: ten failures with different emails block that address, not others", async () => {
    for (let i = 0; i < 10; i++)
      expect((await login("10.0.2.1", `nobody${i}@example.test`, "wrong-password")).status).toBe(401);
    expect((await login("10.0.2.1", `someone-else@example.test`, "wrong-password")).status).toBe(429);
    expect((await login("10.0.2.2", `someone-else@example.test`, "wrong-password")).status).toBe(401);
  });
});

describe("a flood of sign-ins", { timeout: 180_000 }, () => {
  // A fresh server with the real scrypt cost: the verifications must outlast the flood's refusals.
  beforeAll(async () => {
    await stopLimitsServer();
    await startLimitsServer(REAL_PASSWORD_HASH_COST);
  });

  const health = async () =>
    (await (await fetch(new URL("/healthz", app.url))).json()) as { signIns: { verifications: { running: number } } };

  /** A cached domain page and a static file (express.static uses libuv's thread pool, as scrypt does), 3 times each. */
  async function probe(): Promise<{ status: number; medianMs: number; slowestMs: number }> {
    const times: number[] = [];
    let status = 200;
    for (const path of [domainPath, "/favicon.svg", domainPath, "/favicon.svg", domainPath, "/favicon.svg"]) {
      const started = performance.now();
      const reply = await http(app, path);
      times.push(performance.now() - started);
      if (reply.status !== 200) status = reply.status;
    }
    times.sort((a, b) => a - b);
    return { status, medianMs: times[Math.floor(times.length / 2)]!, slowestMs: times[times.length - 1]! };
  }

  /** Fires `count` wrong sign-ins at once; while their passwords are being verified, times other requests. */
  async function flood(count: number, addressOf: (i: number) => string, emailOf: (i: number) => string) {
    expect((await http(app, domainPath)).status).toBe(200); // in the page cache from here on
    let answered = 0;
    const answers = Array.from({ length: count }, (_, i) =>
      login(addressOf(i), emailOf(i), "wrong-password-flood").then((answer) => {
        answered += 1;
        return answer;
      }),
    );
    // "Meanwhile": the refusals are out (a few bytes each) and scrypt runs for the ones let through.
    await waitFor(
      async () => answered >= count - 20 && (await health()).signIns.verifications.running > 0,
      60_000,
      "the refusals out and verifications running",
      20,
    );
    const page = await probe();
    const stillVerifying = answered < count;
    const statuses = (await Promise.all(answers)).map((answer) => answer.status);
    const byStatus = statuses.reduce<Record<number, number>>(
      (counts, status) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }),
      {},
    );
    expect(stillVerifying).toBe(true);
    return { byStatus, pageStatus: page.status, pageMs: page.medianMs, slowestMs: page.slowestMs };
  }

  it("300 at once from one address: the attempts are counted before verifying, so at most 10 are verified", async () => {
    const { byStatus, pageStatus, pageMs, slowestMs } = await flood(
      300,
      () => "10.0.4.1",
      (i) => `flood${i}@example.test`,
    );
    console.log(
      `sign-in flood, one address: ${JSON.stringify(byStatus)}; a domain page and a static file meanwhile: ${pageStatus}, median ${pageMs.toFixed(0)} ms, slowest ${slowestMs.toFixed(0)} ms`,
    );
    expect(byStatus[401]).toBeLessThanOrEqual(10);
    expect((byStatus[429] ?? 0) + (byStatus[503] ?? 0) + (byStatus[401] ?? 0)).toBe(300);
    expect(byStatus[429]).toBeGreaterThanOrEqual(290);
    expect(pageStatus).toBe(200);
    expect(pageMs).toBeLessThan(200);
  });

  it("300 at once from 300 addresses: 2 verifications run, 8 wait, the rest get 503 at once", async () => {
    const { byStatus, pageStatus, pageMs, slowestMs } = await flood(
      300,
      (i) => `10.5.${Math.floor(i / 250)}.${i % 250}`,
      (i) => `spread${i}@example.test`,
    );
    console.log(
      `sign-in flood, 300 addresses: ${JSON.stringify(byStatus)}; a domain page and a static file meanwhile: ${pageStatus}, median ${pageMs.toFixed(0)} ms, slowest ${slowestMs.toFixed(0)} ms`,
    );
    expect(Object.keys(byStatus).sort()).toEqual(["401", "503"]);
    expect(byStatus[503]).toBeGreaterThan(200);
    expect(pageStatus).toBe(200);
    expect(pageMs).toBeLessThan(200);
    const busy = await login("10.6.0.1", "late@example.test", "wrong-password");
    expect(busy.status).toBe(401); // the queue drained: a later attempt is verified as usual
  });

  it("a refused (503) attempt says so and when to come back", async () => {
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => login(`10.7.0.${i}`, `late${i}@example.test`, "wrong-password")),
    );
    const busy = answers.find((answer) => answer.status === 503);
    expect(busy).toBeDefined();
    expect(busy!.headers.get("retry-after")).toBe("5");
    expect(visibleText(busy!.body)).toContain("Too many sign-in attempts right now. Please try again in a moment.");
  });
});
