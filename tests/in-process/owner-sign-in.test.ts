import { describe, expect, it } from "vitest";
import { CookieJar } from "../support/cookie-jar";
import { createAdmin, createDomain } from "../support/factories";
import { useTestClock } from "../support/in-process/clock";
import { render } from "../support/in-process/document";
import { sentMail } from "../support/in-process/mail";
import { mailText, subjectOf } from "../support/mail-text";
import { codeIn, signInLinkIn } from "../support/owner";
import { visibleText } from "../support/visible-text";

// Owner sign-in by emailed code (remix-auth-totp, with a server-side row per code). Each test claims its
// own client address, as the limits count per address. Two processes sharing the codes: the integration
// test of the same name.
const clock = useTestClock();
let ownerNumber = 0;

/** A new owner with one domain; its email as stored (spaces and capitals, as older imports kept it) and as it signs in. */
async function newOwner() {
  ownerNumber += 1;
  const email = `owner${ownerNumber}-${Date.now()}@owners.example`;
  await createDomain({ prefix: "own", storedOwnerEmail: `  ${email.toUpperCase()} ` });
  return email;
}

let ipNumber = 0;
const newIp = () => `10.1.${Math.floor(++ipNumber / 250)}.${ipNumber % 250}`;

const ownerRequest = (jar: CookieJar, path: string, options: { form?: Record<string, string>; ip?: string } = {}) =>
  render(path, { jar, form: options.form, clientAddress: options.ip });

/** The newest sign-in email to `email` among those sent after the first `seen`. */
async function signInMail(email: string, seen = 0) {
  const mail = (await sentMail())
    .slice(seen)
    .reverse()
    .find((message) => message.to.includes(email) && /sign-in code/i.test(message.raw));
  if (!mail) throw new Error(`no sign-in email to ${email}`);
  return mail;
}

async function askForCode(jar: CookieJar, email: string, ip: string) {
  const seen = (await sentMail()).length;
  const asked = await ownerRequest(jar, "/owner", { form: { intent: "send-code", email }, ip });
  expect(asked.status, asked.body.slice(0, 300)).toBe(303);
  return signInMail(email, seen);
}

/** Signs an owner in with the emailed code; returns the browser's jar. */
async function signInOwner(email: string, ip: string): Promise<CookieJar> {
  const jar = new CookieJar();
  const code = codeIn(await askForCode(jar, email, ip));
  const signedIn = await ownerRequest(jar, "/owner", { form: { intent: "sign-in", code }, ip });
  if (signedIn.status !== 303 || !jar.cookies.has("owner_session"))
    throw new Error(`sign-in answered ${signedIn.status}: ${signedIn.body.slice(0, 300)}`);
  return jar;
}

describe("owner sign-in", () => {
  it("shows the form, refuses a malformed email, and signs in with the emailed code", async () => {
    const email = await newOwner();
    const ip = newIp();
    const jar = new CookieJar();
    const form = await ownerRequest(jar, "/owner");
    expect(form.status).toBe(200);
    expect(visibleText(form.body)).toContain("Owner sign-in");
    expect(visibleText(form.body)).toContain("Email me a sign-in code");

    const malformed = await ownerRequest(jar, "/owner", { form: { intent: "send-code", email: "not-an-email" }, ip });
    expect(malformed.status).toBe(400);
    expect(visibleText(malformed.body)).toContain("Please enter a valid email address");

    const mail = await askForCode(jar, email, ip);
    expect(subjectOf(mail)).toContain("[test mode - no real charge]");
    expect(mailText(mail)).toContain("TEST MODE");
    const code = codeIn(mail);
    expect(code).toMatch(/^\d{6}$/);
    expect(signInLinkIn(mail)).toMatch(/^\/owner\/link\?/);

    const step2 = await ownerRequest(jar, "/owner");
    expect(visibleText(step2.body)).toContain(`Code for ${email}`);
    const wrongCode = code === "000000" ? "111111" : "000000";
    const wrong = await ownerRequest(jar, "/owner", { form: { intent: "sign-in", code: wrongCode }, ip });
    expect(wrong.status).toBe(400);
    expect(visibleText(wrong.body)).toContain("That code is not right.");

    const signedIn = await ownerRequest(jar, "/owner", { form: { intent: "sign-in", code }, ip });
    expect(signedIn.status).toBe(303);
    expect(signedIn.location).toBe("/owner");
    const desk = await ownerRequest(jar, "/owner");
    expect(visibleText(desk.body)).toContain("Your desk");
    expect(visibleText(desk.body)).toContain(`Signed in as ${email}`);
  });

  it("signs in only as the address the code was sent to, whatever the strategy's cookie names", async () => {
    const attacker = await newOwner();
    const victim = await newOwner();
    const ip = newIp();
    for (const via of ["code", "link"] as const) {
      const jar = new CookieJar();
      const mail = await askForCode(jar, attacker, ip);
      // remix-auth-totp keeps the email in its cookie as plain text, beside the encrypted code.
      const strategyCookie = new URLSearchParams(jar.cookies.get("_totp")!);
      expect(strategyCookie.get("email")).toBe(attacker);
      strategyCookie.set("email", victim);
      jar.cookies.set("_totp", strategyCookie.toString());
      if (via === "code") await ownerRequest(jar, "/owner", { form: { intent: "sign-in", code: codeIn(mail) }, ip });
      else await ownerRequest(jar, signInLinkIn(mail), { ip });
      expect(jar.cookies.has("owner_session"), via).toBe(false);
      const desk = await ownerRequest(jar, "/owner");
      expect(visibleText(desk.body).toLowerCase(), via).not.toContain(victim);
      expect(visibleText(desk.body), via).toContain("Owner sign-in");
    }
  });

  it("refuses a code used once already, even with the cookies it came with", async () => {
    const email = await newOwner();
    const ip = newIp();
    const jar = new CookieJar();
    const code = codeIn(await askForCode(jar, email, ip));
    const replay = jar.copy();
    expect((await ownerRequest(jar, "/owner", { form: { intent: "sign-in", code }, ip })).status).toBe(303);
    const again = await ownerRequest(replay, "/owner", { form: { intent: "sign-in", code }, ip });
    expect(again.status).toBe(400);
    expect(visibleText(again.body)).toContain("That code was already used.");
    expect(replay.cookies.has("owner_session")).toBe(false);
  });

  it("refuses an expired code and an expired link (the server's clock)", async () => {
    const email = await newOwner();
    const ip = newIp();
    const jar = new CookieJar();
    const mail = await askForCode(jar, email, ip);
    clock.advance(11 * 60 * 1000);
    const late = await ownerRequest(jar.copy(), "/owner", { form: { intent: "sign-in", code: codeIn(mail) }, ip });
    expect(late.status).toBe(400);
    expect(visibleText(late.body)).toContain("That code has expired.");
    const lateLink = await ownerRequest(jar.copy(), signInLinkIn(mail), { ip });
    expect(lateLink.location).toBe("/owner?error=expired-link");
  });

  it("signs in once from the emailed link; a second opening is refused", async () => {
    const email = await newOwner();
    const ip = newIp();
    const jar = new CookieJar();
    const link = signInLinkIn(await askForCode(jar, email, ip));
    const before = jar.copy();
    const opened = await ownerRequest(jar, link, { ip });
    expect(opened.status).toBe(303);
    expect(opened.location).toBe("/owner");
    expect(jar.cookies.has("owner_session")).toBe(true);
    const twice = await ownerRequest(before, link, { ip });
    expect(twice.location).toBe("/owner?error=used-link");
    const shown = await ownerRequest(before, twice.location!);
    expect(visibleText(shown.body)).toContain("That sign-in link was already used.");
    expect(before.cookies.has("owner_session")).toBe(false);
  });

  it("names a code sent to another address", async () => {
    const first = await newOwner();
    const second = await newOwner();
    const ip = newIp();
    const jar = new CookieJar();
    const firstCode = codeIn(await askForCode(jar, first, ip));
    await askForCode(jar, second, ip);
    const mixed = await ownerRequest(jar, "/owner", { form: { intent: "sign-in", code: firstCode }, ip });
    expect(mixed.status).toBe(400);
    expect(visibleText(mixed.body)).toContain(
      `That code was sent to another email address. Enter the code sent to ${second}`,
    );
    // "Use another email or get a new code" forgets the pending code: the email field again.
    const over = await ownerRequest(jar, "/owner", { form: { intent: "start-over" }, ip });
    expect(over.status).toBe(303);
    const form = visibleText((await ownerRequest(jar, "/owner")).body);
    expect(form).toContain("Email me a sign-in code");
    expect(form).not.toContain("Code for");
  });

  it("spends a code after five wrong tries", async () => {
    const email = await newOwner();
    const ip = newIp();
    const jar = new CookieJar();
    const code = codeIn(await askForCode(jar, email, ip));
    const wrongCode = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < 5; i += 1)
      await ownerRequest(jar, "/owner", { form: { intent: "sign-in", code: wrongCode }, ip });
    const right = await ownerRequest(jar, "/owner", { form: { intent: "sign-in", code }, ip });
    expect(right.status).toBe(400);
    expect(visibleText(right.body)).toContain("Too many wrong codes.");
  });

  it("answers the same, in the same time, for an address that owns nothing, and mails it nothing", async () => {
    const owner = await newOwner();
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
        const reply = await ownerRequest(jar, "/owner", { form: { intent: "send-code", email }, ip: newIp() });
        timings[who]!.push(performance.now() - started);
        answers.push({
          who,
          status: reply.status,
          location: reply.location,
          body: reply.body,
          cookies: [...jar.cookies.keys()].sort(),
        });
        const page = await ownerRequest(jar, "/owner");
        answers.push({ who, page: visibleText(page.body).replace(email, "EMAIL") });
      }
    }
    const mine = answers.filter((answer) => answer.who === "owner").map(({ who: _, ...rest }) => rest);
    const theirs = answers.filter((answer) => answer.who === "stranger").map(({ who: _, ...rest }) => rest);
    expect(theirs).toEqual(mine);
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    expect(Math.abs(median(timings.owner!) - median(timings.stranger!))).toBeLessThan(50);
    // Everything queued is sent by now: the owner's codes went out, nothing to the stranger.
    await signInMail(owner);
    expect((await sentMail()).some((mail) => mail.to.includes(stranger))).toBe(false);
  });

  it("limits codes per email and per address with 429 and Retry-After", async () => {
    const email = await newOwner();
    for (let i = 0; i < 5; i += 1) {
      const reply = await ownerRequest(new CookieJar(), "/owner", {
        form: { intent: "send-code", email },
        ip: newIp(),
      });
      expect(reply.status).toBe(303);
    }
    const perEmail = await ownerRequest(new CookieJar(), "/owner", {
      form: { intent: "send-code", email },
      ip: newIp(),
    });
    expect(perEmail.status).toBe(429);
    expect(Number(perEmail.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(visibleText(perEmail.body)).toContain("Too many sign-in codes asked for.");

    const ip = newIp();
    for (let i = 0; i < 20; i += 1) {
      const reply = await ownerRequest(new CookieJar(), "/owner", {
        form: { intent: "send-code", email: `many${i}-${Date.now()}@owners.example` },
        ip,
      });
      expect(reply.status).toBe(303);
    }
    const perAddress = await ownerRequest(new CookieJar(), "/owner", {
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
      await askForCode(jar, await newOwner(), newIp());
      status = (await ownerRequest(jar, "/owner", { form: { intent: "sign-in", code: "000000" }, ip })).status;
    }
    expect(status).toBe(429);
  });

  it("keeps owner and admin sessions apart", async () => {
    const email = await newOwner();
    const jar = await signInOwner(email, newIp());
    const admin = await ownerRequest(jar, "/admin");
    expect(visibleText(admin.body)).toContain("Admin Login");
    expect(visibleText(admin.body)).not.toContain("Admin Panel");
    const adminJar = new CookieJar();
    adminJar.cookies.set("admin_session", (await createAdmin()).cookie.split("=").slice(1).join("="));
    expect(visibleText((await ownerRequest(adminJar, "/admin")).body)).toContain("Admin Panel");
    const owner = await ownerRequest(adminJar, "/owner");
    expect(visibleText(owner.body)).toContain("Owner sign-in");
    expect(visibleText(owner.body)).not.toContain("Your desk");
  });

  it("signs out: the session row is gone", async () => {
    const jar = await signInOwner(await newOwner(), newIp());
    const stolen = jar.copy();
    const out = await ownerRequest(jar, "/owner", { form: { intent: "sign-out" } });
    expect(out.status).toBe(303);
    expect(visibleText((await ownerRequest(stolen, "/owner")).body)).toContain("Owner sign-in");
  });
});
