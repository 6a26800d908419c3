import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_ADMIN, adminCookie } from "../support/admin";
import { removeDataDir, startAppServer, type AppServer } from "../support/app-server";
import { insertDomain, uniqueDomainName } from "../support/data";
import { mailText, subjectOf, testClock } from "../support/refund-promise";
import { startSmtp, type TestSmtp } from "../support/smtp";
import { CookieJar, codeIn, ownerRequest, signInLinkIn, signInMail, signInOwner } from "../support/owner";
import { visibleText } from "./admin-helpers";

// Owner sign-in by emailed code (remix-auth-totp, with a server-side row per code). Its own server:
// the tests use up limits. TRUST_PROXY lets each test claim its own client address.
let app: AppServer;
let smtp: TestSmtp;
const clock = testClock();
let ownerNumber = 0;

beforeAll(async () => {
  smtp = await startSmtp();
  app = await startAppServer({
    env: {
      SMTP_URL: smtp.url,
      TEST_CLOCK_FILE: clock.file,
      TRUST_PROXY: "true",
      SEED_DEMO: "false",
      PAYMENTS: "test",
      ADMIN_EMAIL: TEST_ADMIN.email,
      ADMIN_PASSWORD: TEST_ADMIN.password,
    },
  });
});
afterAll(async () => {
  await app?.stop();
  if (app) removeDataDir(app);
  await smtp?.stop();
});

/** A new owner with one domain; its email as stored (spaces and capitals) and as it signs in. */
function newOwner() {
  ownerNumber += 1;
  const email = `owner${ownerNumber}-${Date.now()}@owners.example`;
  insertDomain(app.db(), {
    name: uniqueDomainName("own"),
    priceCents: 100_000,
    ownerEmail: `  ${email.toUpperCase()} `,
  });
  return email;
}

let ipNumber = 0;
const newIp = () => `10.1.${Math.floor(++ipNumber / 250)}.${ipNumber % 250}`;

async function askForCode(jar: CookieJar, email: string, ip: string) {
  const seen = smtp.messages.length;
  const asked = await ownerRequest(app, jar, "/owner", { form: { intent: "send-code", email }, ip });
  expect(asked.status, asked.body.slice(0, 300)).toBe(303);
  return signInMail(smtp, email, seen);
}

describe("owner sign-in", () => {
  it("shows the form, refuses a malformed email, and signs in with the emailed code", async () => {
    const email = newOwner();
    const ip = newIp();
    const jar = new CookieJar();
    const form = await ownerRequest(app, jar, "/owner");
    expect(form.status).toBe(200);
    expect(visibleText(form.body)).toContain("Owner sign-in");
    expect(visibleText(form.body)).toContain("Email me a sign-in code");

    const malformed = await ownerRequest(app, jar, "/owner", {
      form: { intent: "send-code", email: "not-an-email" },
      ip,
    });
    expect(malformed.status).toBe(400);
    expect(visibleText(malformed.body)).toContain("Please enter a valid email address");

    const mail = await askForCode(jar, email, ip);
    expect(subjectOf(mail)).toContain("[test mode - no real charge]");
    expect(mailText(mail)).toContain("TEST MODE");
    const code = codeIn(mail);
    expect(code).toMatch(/^\d{6}$/);
    expect(signInLinkIn(mail)).toMatch(/^\/owner\/link\?/);

    const step2 = await ownerRequest(app, jar, "/owner");
    expect(visibleText(step2.body)).toContain(`Code for ${email}`);
    const wrongCode = code === "000000" ? "111111" : "000000";
    const wrong = await ownerRequest(app, jar, "/owner", { form: { intent: "sign-in", code: wrongCode }, ip });
    expect(wrong.status).toBe(400);
    expect(visibleText(wrong.body)).toContain("That code is not right.");

    const signedIn = await ownerRequest(app, jar, "/owner", { form: { intent: "sign-in", code }, ip });
    expect(signedIn.status).toBe(303);
    expect(signedIn.location).toBe("/owner");
    const desk = await ownerRequest(app, jar, "/owner");
    expect(visibleText(desk.body)).toContain("Your desk");
    expect(visibleText(desk.body)).toContain(`Signed in as ${email}`);
  });

  it("refuses a code used once already, even with the cookies it came with", async () => {
    const email = newOwner();
    const ip = newIp();
    const jar = new CookieJar();
    const code = codeIn(await askForCode(jar, email, ip));
    const replay = jar.copy();
    expect((await ownerRequest(app, jar, "/owner", { form: { intent: "sign-in", code }, ip })).status).toBe(303);
    const again = await ownerRequest(app, replay, "/owner", { form: { intent: "sign-in", code }, ip });
    expect(again.status).toBe(400);
    expect(visibleText(again.body)).toContain("That code was already used.");
    expect(replay.cookies.has("owner_session")).toBe(false);
  });

  it("refuses an expired code and an expired link (the server's clock)", async () => {
    const email = newOwner();
    const ip = newIp();
    const jar = new CookieJar();
    const mail = await askForCode(jar, email, ip);
    await clock.advance(11 * 60 * 1000);
    try {
      const late = await ownerRequest(app, jar.copy(), "/owner", {
        form: { intent: "sign-in", code: codeIn(mail) },
        ip,
      });
      expect(late.status).toBe(400);
      expect(visibleText(late.body)).toContain("That code has expired.");
      const lateLink = await ownerRequest(app, jar.copy(), signInLinkIn(mail), { ip });
      expect(lateLink.location).toBe("/owner?error=expired-link");
    } finally {
      await clock.set(0);
    }
  });

  it("signs in once from the emailed link; a second opening is refused", async () => {
    const email = newOwner();
    const ip = newIp();
    const jar = new CookieJar();
    const link = signInLinkIn(await askForCode(jar, email, ip));
    const before = jar.copy();
    const opened = await ownerRequest(app, jar, link, { ip });
    expect(opened.status).toBe(303);
    expect(opened.location).toBe("/owner");
    expect(jar.cookies.has("owner_session")).toBe(true);
    const twice = await ownerRequest(app, before, link, { ip });
    expect(twice.location).toBe("/owner?error=used-link");
    const shown = await ownerRequest(app, before, twice.location!);
    expect(visibleText(shown.body)).toContain("That sign-in link was already used.");
    expect(before.cookies.has("owner_session")).toBe(false);
  });

  it("names a code sent to another address", async () => {
    const first = newOwner();
    const second = newOwner();
    const ip = newIp();
    const jar = new CookieJar();
    const firstCode = codeIn(await askForCode(jar, first, ip));
    await askForCode(jar, second, ip);
    const mixed = await ownerRequest(app, jar, "/owner", { form: { intent: "sign-in", code: firstCode }, ip });
    expect(mixed.status).toBe(400);
    expect(visibleText(mixed.body)).toContain(
      `That code was sent to another email address. Enter the code sent to ${second}`,
    );
    // "Use another email or get a new code" forgets the pending code: the email field again.
    const over = await ownerRequest(app, jar, "/owner", { form: { intent: "start-over" }, ip });
    expect(over.status).toBe(303);
    const form = visibleText((await ownerRequest(app, jar, "/owner")).body);
    expect(form).toContain("Email me a sign-in code");
    expect(form).not.toContain("Code for");
  });

  it("spends a code after five wrong tries", async () => {
    const email = newOwner();
    const ip = newIp();
    const jar = new CookieJar();
    const code = codeIn(await askForCode(jar, email, ip));
    const wrongCode = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < 5; i += 1)
      await ownerRequest(app, jar, "/owner", { form: { intent: "sign-in", code: wrongCode }, ip });
    const right = await ownerRequest(app, jar, "/owner", { form: { intent: "sign-in", code }, ip });
    expect(right.status).toBe(400);
    expect(visibleText(right.body)).toContain("Too many wrong codes.");
  });

  it("answers the same, in the same time, for an address that owns nothing, and mails it nothing", async () => {
    const owner = newOwner();
    const stranger = `nobody-${Date.now()}@owners.example`;
    const answers = [];
    const timings: Record<string, number[]> = { owner: [], stranger: [] };
    for (let round = 0; round < 4; round += 1) {
      for (const [who, email] of [
        ["owner", owner],
        ["stranger", stranger],
      ] as const) {
        const jar = new CookieJar();
        const started = performance.now();
        const reply = await ownerRequest(app, jar, "/owner", { form: { intent: "send-code", email }, ip: newIp() });
        timings[who]!.push(performance.now() - started);
        answers.push({
          who,
          status: reply.status,
          location: reply.location,
          body: reply.body,
          cookies: [...jar.cookies.keys()].sort(),
        });
        const page = await ownerRequest(app, jar, "/owner");
        answers.push({ who, page: visibleText(page.body).replace(email, "EMAIL") });
      }
    }
    const mine = answers.filter((answer) => answer.who === "owner").map(({ who: _, ...rest }) => rest);
    const theirs = answers.filter((answer) => answer.who === "stranger").map(({ who: _, ...rest }) => rest);
    expect(theirs).toEqual(mine);
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    expect(Math.abs(median(timings.owner!) - median(timings.stranger!))).toBeLessThan(50);
    await signInMail(smtp, owner);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(smtp.messages.some((mail) => mail.to.includes(stranger))).toBe(false);
  });

  it("limits codes per email and per address with 429 and Retry-After", async () => {
    const email = newOwner();
    for (let i = 0; i < 5; i += 1) {
      const reply = await ownerRequest(app, new CookieJar(), "/owner", {
        form: { intent: "send-code", email },
        ip: newIp(),
      });
      expect(reply.status).toBe(303);
    }
    const perEmail = await ownerRequest(app, new CookieJar(), "/owner", {
      form: { intent: "send-code", email },
      ip: newIp(),
    });
    expect(perEmail.status).toBe(429);
    expect(Number(perEmail.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(visibleText(perEmail.body)).toContain("Too many sign-in codes asked for.");

    const ip = newIp();
    for (let i = 0; i < 20; i += 1) {
      const reply = await ownerRequest(app, new CookieJar(), "/owner", {
        form: { intent: "send-code", email: `many${i}-${Date.now()}@owners.example` },
        ip,
      });
      expect(reply.status).toBe(303);
    }
    const perAddress = await ownerRequest(app, new CookieJar(), "/owner", {
      form: { intent: "send-code", email: `one-more-${Date.now()}@owners.example` },
      ip,
    });
    expect(perAddress.status).toBe(429);
    expect(Number(perAddress.headers.get("Retry-After"))).toBeGreaterThan(0);
  });

  it("limits code checks per address with 429", async () => {
    const ip = newIp();
    let status = 0;
    for (let i = 0; i < 31 && status !== 429; i += 1) {
      const jar = new CookieJar();
      await askForCode(jar, newOwner(), newIp());
      status = (await ownerRequest(app, jar, "/owner", { form: { intent: "sign-in", code: "000000" }, ip })).status;
    }
    expect(status).toBe(429);
  });

  it("keeps owner and admin sessions apart", async () => {
    const email = newOwner();
    const jar = await signInOwner(app, smtp, email, newIp());
    const admin = await ownerRequest(app, jar, "/admin");
    expect(visibleText(admin.body)).toContain("Admin Login");
    expect(visibleText(admin.body)).not.toContain("Admin Panel");
    const adminJar = new CookieJar();
    adminJar.cookies.set("admin_session", (await adminCookie(app.url)).split("=").slice(1).join("="));
    expect(visibleText((await ownerRequest(app, adminJar, "/admin")).body)).toContain("Admin Panel");
    const owner = await ownerRequest(app, adminJar, "/owner");
    expect(visibleText(owner.body)).toContain("Owner sign-in");
    expect(visibleText(owner.body)).not.toContain("Your desk");
  });

  it("signs out: the session row is gone", async () => {
    const jar = await signInOwner(app, smtp, newOwner(), newIp());
    const stolen = jar.copy();
    const out = await ownerRequest(app, jar, "/owner", { form: { intent: "sign-out" } });
    expect(out.status).toBe(303);
    expect(visibleText((await ownerRequest(app, stolen, "/owner")).body)).toContain("Owner sign-in");
  });
});

describe("two processes", () => {
  it("a code asked for on one server signs in on the other, once", async () => {
    const second = await startAppServer({ env: app.env, dataDir: app.dataDir });
    try {
      const email = newOwner();
      const ip = newIp();
      const jar = new CookieJar();
      const code = codeIn(await askForCode(jar, email, ip));
      const replay = jar.copy();
      const there = await ownerRequest(second, jar, "/owner", { form: { intent: "sign-in", code }, ip });
      expect(there.status).toBe(303);
      expect(visibleText((await ownerRequest(app, jar, "/owner")).body)).toContain("Your desk");
      const back = await ownerRequest(app, replay, "/owner", { form: { intent: "sign-in", code }, ip });
      expect(visibleText(back.body)).toContain("That code was already used.");
    } finally {
      await second.stop();
    }
  });
});
