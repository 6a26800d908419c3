import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_ADMIN, adminCookie, insertPaidInquiry } from "../support/admin";
import { removeDataDir, startAppServer, type AppServer } from "../support/app-server";
import { insertDomain, uniqueDomainName } from "../support/data";
import { startSmtp, type TestSmtp } from "../support/smtp";
import { CookieJar, ownerRequest, signInOwner } from "../support/owner";
import { http, visibleText, withoutSpans } from "./admin-helpers";

// Each owner's desk: their domains, inquiries and CSV only; another owner's ids are a 404 everywhere.
let app: AppServer;
let smtp: TestSmtp;
let alice: CookieJar;
let bob: CookieJar;
const ALICE = "alice@owners.example";
const BOB = "bob@owners.example";
const names = { alice: "", aliceOld: "", bob: "" };
const ids = { alice: 0, aliceOld: 0, bob: 0, aliceInquiry: 0, bobInquiry: 0 };

function daysAgo(days: number): string {
  return new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
}

beforeAll(async () => {
  smtp = await startSmtp();
  app = await startAppServer({
    env: {
      SMTP_URL: smtp.url,
      TRUST_PROXY: "true",
      SEED_DEMO: "false",
      PAYMENTS: "test",
      ADMIN_EMAIL: TEST_ADMIN.email,
      ADMIN_PASSWORD: TEST_ADMIN.password,
    },
  });
  const db = app.db();
  names.alice = uniqueDomainName("alice");
  names.aliceOld = uniqueDomainName("alice-caps");
  names.bob = uniqueDomainName("bob");
  ids.alice = insertDomain(db, { name: names.alice, priceCents: 250_000, ownerEmail: ALICE });
  // The same owner, typed with capitals and spaces.
  ids.aliceOld = insertDomain(db, {
    name: names.aliceOld,
    priceCents: 90_000,
    ownerEmail: ` ${ALICE.toUpperCase()}  `,
  });
  ids.bob = insertDomain(db, { name: names.bob, priceCents: 500_000, ownerEmail: BOB });
  const views = db.prepare("INSERT INTO domain_daily_views (domain_id, day, views) VALUES (?, ?, ?)");
  views.run(ids.alice, daysAgo(2), 7);
  views.run(ids.alice, daysAgo(10), 5);
  views.run(ids.alice, daysAgo(45), 100);
  ids.aliceInquiry = insertPaidInquiry(db, {
    domainId: ids.alice,
    domainName: names.alice,
    name: "Ann Alicebuyer",
    email: "ann@buyers.example",
    message: "Alice's buyer writes.",
  });
  ids.bobInquiry = insertPaidInquiry(db, {
    domainId: ids.bob,
    domainName: names.bob,
    name: "Ben Bobbuyer",
    email: "ben@buyers.example",
    message: "Bob's buyer writes.",
  });
  alice = await signInOwner(app, smtp, ALICE, "10.2.0.1");
  bob = await signInOwner(app, smtp, BOB, "10.2.0.2");
});
afterAll(async () => {
  await app?.stop();
  if (app) removeDataDir(app);
  await smtp?.stop();
});

const messagesOf = (inquiryId: number) =>
  (app.db().prepare("SELECT count(*) AS n FROM inquiry_messages WHERE inquiry_id = ?").get(inquiryId) as { n: number })
    .n;

describe("the owner's desk", () => {
  it("lists the owner's own domains with price, 30-day views, inquiries and paid", async () => {
    const desk = await ownerRequest(app, alice, "/owner");
    expect(desk.status).toBe(200);
    const text = visibleText(withoutSpans(desk.body));
    expect(text).toContain(names.alice);
    expect(text).toContain(names.aliceOld);
    expect(text).not.toContain(names.bob);
    // price $2,500.00, 12 views in the last 30 days (not the 100 of 45 days ago), 1 inquiry, 1 paid
    expect(text).toMatch(new RegExp(`${names.alice.replace(/\./g, "\\.")} \\$2,500(\\.00)? 12 1 1`));
    expect(text).toContain("Ann Alicebuyer");
    expect(text).not.toContain("Ben Bobbuyer");
  });

  it("shows a domain's funnel chart; another owner's domain is a 404", async () => {
    const own = await ownerRequest(app, alice, `/owner/domains/${ids.alice}`);
    expect(own.status).toBe(200);
    expect(own.body).toContain("<svg");
    expect(visibleText(own.body)).toContain("Last 30 days");
    expect((await ownerRequest(app, alice, `/owner/domains/${ids.bob}`)).status).toBe(404);
    expect((await ownerRequest(app, alice, `/owner/domains/999999`)).status).toBe(404);
  });

  it("shows insights into the owner's own names only", async () => {
    const db = app.db();
    // The app keeps all-time totals beside the daily rows; the insights' lists start from them.
    const totals = db.prepare("INSERT INTO domain_view_totals (domain_id, views) VALUES (?, ?)");
    totals.run(ids.alice, 112);
    totals.run(ids.bob, 50);
    db.prepare("INSERT INTO domain_daily_views (domain_id, day, views) VALUES (?, ?, ?)").run(ids.bob, daysAgo(3), 50);
    const desk = await ownerRequest(app, alice, "/owner");
    const section = (name: string) =>
      visibleText(withoutSpans(new RegExp(`data-insights="${name}"[\\s\\S]*?</section>`).exec(desk.body)?.[0] ?? ""));
    expect(section("fees")).not.toBe("");
    expect(section("most-viewed")).toContain(names.alice);
    expect(section("most-viewed")).not.toContain(names.bob);
    // 7 + 5 + 100 views in the last 90 days are Alice's; Bob's 50 are not counted on her desk.
    expect(desk.body).toMatch(/aria-label="Views per day from [^"]*: 112 in total/);
    const bobs = await ownerRequest(app, bob, "/owner");
    expect(visibleText(withoutSpans(bobs.body))).not.toContain(names.alice);
  });

  it("edits the asking price and minimum offer of the owner's own names only", async () => {
    const saved = await ownerRequest(app, alice, `/owner/domains/${ids.alice}`, {
      form: { intent: "prices", askingPrice: "3100", minOffer: "1500.50" },
    });
    expect(saved.status).toBe(303);
    const row = app.db().prepare("SELECT asking_price_cents, min_offer_cents FROM domains WHERE id = ?").get(ids.alice);
    expect(row).toEqual({ asking_price_cents: 310_000, min_offer_cents: 150_050 });
    const invalid = await ownerRequest(app, alice, `/owner/domains/${ids.alice}`, {
      form: { intent: "prices", askingPrice: "lots", minOffer: "" },
    });
    expect(invalid.status).toBe(400);
    expect(visibleText(invalid.body)).toContain("Please enter a valid price");
    const theirs = await ownerRequest(app, alice, `/owner/domains/${ids.bob}`, {
      form: { intent: "prices", askingPrice: "1", minOffer: "" },
    });
    expect(theirs.status).toBe(404);
    expect(app.db().prepare("SELECT asking_price_cents FROM domains WHERE id = ?").get(ids.bob)).toEqual({
      asking_price_cents: 500_000,
    });
  });

  it("replies and marks answered on the owner's own inquiries; another owner's id is a 404", async () => {
    const before = messagesOf(ids.bobInquiry);
    const foreignReply = await ownerRequest(app, alice, "/owner", {
      form: { intent: "reply", id: String(ids.bobInquiry), message: "Not mine to answer." },
    });
    expect(foreignReply.status).toBe(404);
    expect(messagesOf(ids.bobInquiry)).toBe(before);
    const foreignAnswer = await ownerRequest(app, alice, "/owner", {
      form: { intent: "answered", id: String(ids.bobInquiry) },
    });
    expect(foreignAnswer.status).toBe(404);
    expect(app.db().prepare("SELECT answered_at FROM inquiries WHERE id = ?").get(ids.bobInquiry)).toEqual({
      answered_at: null,
    });

    const answered = await ownerRequest(app, alice, "/owner", {
      form: { intent: "answered", id: String(ids.aliceInquiry) },
    });
    expect(answered.location).toBe("/owner?notice=answered");
    const row = app.db().prepare("SELECT answered_at FROM inquiries WHERE id = ?").get(ids.aliceInquiry) as {
      answered_at: string | null;
    };
    expect(row.answered_at).not.toBeNull();
    const reply = await ownerRequest(app, alice, "/owner", {
      form: { intent: "reply", id: String(ids.aliceInquiry), message: "Happy to talk, Ann." },
    });
    expect(reply.status).toBe(303);
    expect(reply.location).toBe("/owner?notice=replied");
    const desk = await ownerRequest(app, alice, reply.location!);
    expect(visibleText(desk.body)).toContain("Your reply was sent.");
    expect(visibleText(desk.body)).toContain("Happy to talk, Ann.");
  });

  it("downloads only the owner's own inquiries as CSV", async () => {
    const csv = await ownerRequest(app, alice, "/owner/export/inquiries.csv");
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    expect(csv.body).toContain('"Ann Alicebuyer"');
    expect(csv.body).not.toContain("Ben Bobbuyer");
    const bobs = await ownerRequest(app, bob, "/owner/export/inquiries.csv");
    expect(bobs.body).toContain("Ben Bobbuyer");
    expect(bobs.body).not.toContain("Ann Alicebuyer");
  });

  it("sends a signed-out visitor to the sign-in form", async () => {
    const anonymous = new CookieJar();
    for (const path of [`/owner/domains/${ids.alice}`, "/owner/export/inquiries.csv"]) {
      const reply = await ownerRequest(app, anonymous, path);
      expect(reply.status).toBe(303);
      expect(reply.location).toBe("/owner");
    }
    const messages = messagesOf(ids.aliceInquiry);
    const post = await ownerRequest(app, anonymous, "/owner", {
      form: { intent: "reply", id: String(ids.aliceInquiry), message: "hi" },
    });
    expect(post.status).toBe(303);
    // Sent to the sign-in form, not to "?notice=replied": nothing was sent.
    expect(post.location).toBe("/owner");
    expect(messagesOf(ids.aliceInquiry)).toBe(messages);
  });
});

describe("the admin's owners page", () => {
  let admin = "";
  beforeAll(async () => {
    admin = await adminCookie(app.url);
  });

  it("lists owner emails with their domain counts and last sign-in", async () => {
    const page = await http(app, "/admin/owners", { cookie: admin });
    expect(page.status).toBe(200);
    const text = visibleText(page.body);
    expect(text).toMatch(new RegExp(`${ALICE} 2 `));
    expect(text).toMatch(new RegExp(`${BOB} 1 `));
    expect(text).toContain("Owner sign-in");
    expect(text).toContain("Owners may change their prices");
    // An owner session is not an admin session.
    const asOwner = await ownerRequest(app, alice, "/admin/owners");
    expect(asOwner.status).toBe(303);
    expect(asOwner.location).toBe("/admin");
  });

  it("turns price changes off: the owner's form says so and a post is refused", async () => {
    const off = await http(app, "/admin/owners", { cookie: admin, form: { intent: "owner-prices", value: "off" } });
    expect(off.status).toBe(303);
    try {
      const page = await ownerRequest(app, alice, `/owner/domains/${ids.alice}`);
      expect(visibleText(page.body)).toContain("Prices are set by the site's admin.");
      const refused = await ownerRequest(app, alice, `/owner/domains/${ids.alice}`, {
        form: { intent: "prices", askingPrice: "1", minOffer: "" },
      });
      expect(refused.status).toBe(403);
      expect(app.db().prepare("SELECT asking_price_cents FROM domains WHERE id = ?").get(ids.alice)).toEqual({
        asking_price_cents: 310_000,
      });
    } finally {
      await http(app, "/admin/owners", { cookie: admin, form: { intent: "owner-prices", value: "on" } });
    }
  });

  it("signs one owner out everywhere", async () => {
    const second = await signInOwner(app, smtp, ALICE, "10.2.0.3");
    const out = await http(app, "/admin/owners", {
      cookie: admin,
      form: { intent: "sign-out-everywhere", email: ALICE },
    });
    expect(out.status).toBe(303);
    for (const jar of [alice, second])
      expect(visibleText((await ownerRequest(app, jar, "/owner")).body)).toContain("Owner sign-in");
    expect(visibleText((await ownerRequest(app, bob, "/owner")).body)).toContain("Your desk");
    alice = await signInOwner(app, smtp, ALICE, "10.2.0.4");
  });

  it("turns owner sign-in off: /owner says so with a 404 and sessions end", async () => {
    const off = await http(app, "/admin/owners", { cookie: admin, form: { intent: "owner-sign-in", value: "off" } });
    expect(off.status).toBe(303);
    try {
      const page = await ownerRequest(app, bob, "/owner");
      expect(page.status).toBe(404);
      expect(visibleText(page.body)).toContain("Owner sign-in is turned off on this site.");
      expect((await ownerRequest(app, bob, `/owner/domains/${ids.bob}`)).status).toBe(404);
      expect((await ownerRequest(app, bob, "/owner/export/inquiries.csv")).status).toBe(404);
      const ask = await ownerRequest(app, new CookieJar(), "/owner", { form: { intent: "send-code", email: BOB } });
      expect(ask.status).toBe(404);
    } finally {
      await http(app, "/admin/owners", { cookie: admin, form: { intent: "owner-sign-in", value: "on" } });
    }
    expect(visibleText((await ownerRequest(app, bob, "/owner")).body)).toContain("Owner sign-in");
  });
});
