import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeDataDir, startAppServer, type AppServer } from "../support/app-server";
import { insertDomain, uniqueDomainName } from "../support/data";
import { startSmtp, type TestSmtp } from "../support/smtp";
import { CookieJar, codeIn, ownerRequest, signInMail } from "../support/owner";
import { visibleText } from "./admin-helpers";

// Owner sign-in across processes: what a code asked for on one server does on another sharing the
// database. The rest of owner sign-in is tested in process (tests/in-process/owner-sign-in.test.ts).
let app: AppServer;
let smtp: TestSmtp;
let ownerNumber = 0;

beforeAll(async () => {
  smtp = await startSmtp();
  app = await startAppServer({
    env: {
      SMTP_URL: smtp.url,
      TRUST_PROXY: "true",
      SEED_DEMO: "false",
      PAYMENTS: "test",
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
