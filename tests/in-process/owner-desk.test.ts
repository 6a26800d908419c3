import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../../app/server/db/database.server";
import { CookieJar } from "../support/cookie-jar";
import {
  createAdmin,
  createDomain,
  createPaidInquiry,
  recordViews,
  signInOwner,
  type TestAdmin,
} from "../support/factories";
import { useTestClock } from "../support/in-process/clock";
import { render } from "../support/in-process/document";
import { visibleText, withoutSpans } from "../support/visible-text";

// Each owner's desk: their domains, inquiries and CSV only; another owner's ids are a 404 everywhere.
const clock = useTestClock();
let alice: CookieJar;
let bob: CookieJar;
let admin: TestAdmin;
const ALICE = "alice@owners.example";
const BOB = "bob@owners.example";
const names = { alice: "", aliceOld: "", bob: "" };
const ids = { alice: 0, aliceOld: 0, bob: 0, aliceInquiry: 0, bobInquiry: 0 };

/** A browser signed in as this owner (a session as the emailed code starts one). */
async function ownerBrowser(email: string): Promise<CookieJar> {
  const jar = new CookieJar();
  const [name, value] = (await signInOwner(email)).split("=");
  jar.cookies.set(name!, value!);
  return jar;
}
const ownerRequest = (jar: CookieJar, path: string, options: { form?: Record<string, string> } = {}) =>
  render(path, { jar, form: options.form });

beforeAll(async () => {
  const aliceDomain = await createDomain({ prefix: "alice", priceCents: 250_000, ownerEmail: ALICE });
  // The same owner, typed with capitals and spaces.
  const aliceOld = await createDomain({
    prefix: "alicecaps",
    priceCents: 90_000,
    storedOwnerEmail: ` ${ALICE.toUpperCase()}  `,
  });
  const bobDomain = await createDomain({ prefix: "bob", priceCents: 500_000, ownerEmail: BOB });
  Object.assign(names, { alice: aliceDomain.domain_name, aliceOld: aliceOld.domain_name, bob: bobDomain.domain_name });
  Object.assign(ids, { alice: aliceDomain.id, aliceOld: aliceOld.id, bob: bobDomain.id });
  await recordViews(clock, ids.alice, 7, 2);
  await recordViews(clock, ids.alice, 5, 10);
  await recordViews(clock, ids.alice, 100, 45);
  ids.aliceInquiry = (
    await createPaidInquiry(aliceDomain, {
      buyer: { name: "Ann Alicebuyer", email: "ann@buyers.example", message: "Alice's buyer writes." },
    })
  ).id;
  ids.bobInquiry = (
    await createPaidInquiry(bobDomain, {
      buyer: { name: "Ben Bobbuyer", email: "ben@buyers.example", message: "Bob's buyer writes." },
    })
  ).id;
  alice = await ownerBrowser(ALICE);
  bob = await ownerBrowser(BOB);
  admin = await createAdmin();
});

const messagesOf = async (inquiryId: number) =>
  Number(
    (
      await db
        .selectFrom("inquiry_messages")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("inquiry_id", "=", inquiryId)
        .executeTakeFirstOrThrow()
    ).n,
  );
const domainRow = (id: number) =>
  db
    .selectFrom("domains")
    .select(["asking_price_cents", "min_offer_cents"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
const answeredAt = async (inquiryId: number) =>
  (await db.selectFrom("inquiries").select("answered_at").where("id", "=", inquiryId).executeTakeFirstOrThrow())
    .answered_at;

describe("the owner's desk", () => {
  it("lists the owner's own domains with price, 30-day views, inquiries and paid", async () => {
    const desk = await ownerRequest(alice, "/owner");
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
    const own = await ownerRequest(alice, `/owner/domains/${ids.alice}`);
    expect(own.status).toBe(200);
    expect(own.body).toContain("<svg");
    expect(visibleText(own.body)).toContain("Last 30 days");
    expect((await ownerRequest(alice, `/owner/domains/${ids.bob}`)).status).toBe(404);
    expect((await ownerRequest(alice, `/owner/domains/999999`)).status).toBe(404);
  });

  it("shows insights into the owner's own names only", async () => {
    // Bob's domain is viewed too: his views never count on Alice's desk.
    await recordViews(clock, ids.bob, 50, 3);
    const desk = await ownerRequest(alice, "/owner");
    const section = (name: string) =>
      visibleText(withoutSpans(new RegExp(`data-insights="${name}"[\\s\\S]*?</section>`).exec(desk.body)?.[0] ?? ""));
    expect(section("fees")).not.toBe("");
    expect(section("most-viewed")).toContain(names.alice);
    expect(section("most-viewed")).not.toContain(names.bob);
    // 7 + 5 + 100 views in the last 90 days are Alice's; Bob's 50 are not counted on her desk.
    expect(desk.body).toMatch(/aria-label="Views per day from [^"]*: 112 in total/);
    const bobs = await ownerRequest(bob, "/owner");
    expect(visibleText(withoutSpans(bobs.body))).not.toContain(names.alice);
  });

  it("edits the asking price and minimum offer of the owner's own names only", async () => {
    const saved = await ownerRequest(alice, `/owner/domains/${ids.alice}`, {
      form: { intent: "prices", askingPrice: "3100", minOffer: "1500.50" },
    });
    expect(saved.status).toBe(303);
    const row = await domainRow(ids.alice);
    expect({ asking: Number(row.asking_price_cents), minimum: Number(row.min_offer_cents) }).toEqual({
      asking: 310_000,
      minimum: 150_050,
    });
    const invalid = await ownerRequest(alice, `/owner/domains/${ids.alice}`, {
      form: { intent: "prices", askingPrice: "lots", minOffer: "" },
    });
    expect(invalid.status).toBe(400);
    expect(visibleText(invalid.body)).toContain("Please enter a valid price");
    const theirs = await ownerRequest(alice, `/owner/domains/${ids.bob}`, {
      form: { intent: "prices", askingPrice: "1", minOffer: "" },
    });
    expect(theirs.status).toBe(404);
    expect(Number((await domainRow(ids.bob)).asking_price_cents)).toBe(500_000);
  });

  it("replies and marks answered on the owner's own inquiries; another owner's id is a 404", async () => {
    const before = await messagesOf(ids.bobInquiry);
    const foreignReply = await ownerRequest(alice, "/owner", {
      form: { intent: "reply", id: String(ids.bobInquiry), message: "Not mine to answer." },
    });
    expect(foreignReply.status).toBe(404);
    expect(await messagesOf(ids.bobInquiry)).toBe(before);
    const foreignAnswer = await ownerRequest(alice, "/owner", {
      form: { intent: "answered", id: String(ids.bobInquiry) },
    });
    expect(foreignAnswer.status).toBe(404);
    expect(await answeredAt(ids.bobInquiry)).toBeNull();

    const answered = await ownerRequest(alice, "/owner", {
      form: { intent: "answered", id: String(ids.aliceInquiry) },
    });
    expect(answered.location).toBe("/owner?notice=answered");
    expect(await answeredAt(ids.aliceInquiry)).not.toBeNull();
    const reply = await ownerRequest(alice, "/owner", {
      form: { intent: "reply", id: String(ids.aliceInquiry), message: "Happy to talk, Ann." },
    });
    expect(reply.status).toBe(303);
    expect(reply.location).toBe("/owner?notice=replied");
    const desk = await ownerRequest(alice, reply.location!);
    expect(visibleText(desk.body)).toContain("Your reply was sent.");
    expect(visibleText(desk.body)).toContain("Happy to talk, Ann.");
  });

  it("downloads only the owner's own inquiries as CSV", async () => {
    const csv = await ownerRequest(alice, "/owner/export/inquiries.csv");
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    expect(csv.body).toContain('"Ann Alicebuyer"');
    expect(csv.body).not.toContain("Ben Bobbuyer");
    const bobs = await ownerRequest(bob, "/owner/export/inquiries.csv");
    expect(bobs.body).toContain("Ben Bobbuyer");
    expect(bobs.body).not.toContain("Ann Alicebuyer");
  });

  it("sends a signed-out visitor to the sign-in form", async () => {
    const anonymous = new CookieJar();
    for (const path of [`/owner/domains/${ids.alice}`, "/owner/export/inquiries.csv"]) {
      const reply = await ownerRequest(anonymous, path);
      expect(reply.status).toBe(303);
      expect(reply.location).toBe("/owner");
    }
    const messages = await messagesOf(ids.aliceInquiry);
    const post = await ownerRequest(anonymous, "/owner", {
      form: { intent: "reply", id: String(ids.aliceInquiry), message: "hi" },
    });
    expect(post.status).toBe(303);
    // Sent to the sign-in form, not to "?notice=replied": nothing was sent.
    expect(post.location).toBe("/owner");
    expect(await messagesOf(ids.aliceInquiry)).toBe(messages);
  });
});

describe("the admin's owners page", () => {
  const adminPost = (form: Record<string, string>) => render("/admin/owners", { cookie: admin.cookie, form });

  it("lists owner emails with their domain counts and last sign-in", async () => {
    const page = await render("/admin/owners", { cookie: admin.cookie });
    expect(page.status).toBe(200);
    const text = visibleText(page.body);
    expect(text).toMatch(new RegExp(`${ALICE} 2 `));
    expect(text).toMatch(new RegExp(`${BOB} 1 `));
    expect(text).toContain("Owner sign-in");
    expect(text).toContain("Owners may change their prices");
    // An owner session is not an admin session.
    const asOwner = await ownerRequest(alice, "/admin/owners");
    expect(asOwner.status).toBe(303);
    expect(asOwner.location).toBe("/admin");
  });

  it("turns price changes off: the owner's form says so and a post is refused", async () => {
    const off = await adminPost({ intent: "owner-prices", value: "off" });
    expect(off.status).toBe(303);
    try {
      const page = await ownerRequest(alice, `/owner/domains/${ids.alice}`);
      expect(visibleText(page.body)).toContain("Prices are set by the site's admin.");
      const refused = await ownerRequest(alice, `/owner/domains/${ids.alice}`, {
        form: { intent: "prices", askingPrice: "1", minOffer: "" },
      });
      expect(refused.status).toBe(403);
      expect(Number((await domainRow(ids.alice)).asking_price_cents)).toBe(310_000);
    } finally {
      await adminPost({ intent: "owner-prices", value: "on" });
    }
  });

  it("signs one owner out everywhere", async () => {
    const second = await ownerBrowser(ALICE);
    const out = await adminPost({ intent: "sign-out-everywhere", email: ALICE });
    expect(out.status).toBe(303);
    for (const jar of [alice, second])
      expect(visibleText((await ownerRequest(jar, "/owner")).body)).toContain("Owner sign-in");
    expect(visibleText((await ownerRequest(bob, "/owner")).body)).toContain("Your desk");
    alice = await ownerBrowser(ALICE);
  });

  it("turns owner sign-in off: /owner says so with a 404 and sessions end", async () => {
    const off = await adminPost({ intent: "owner-sign-in", value: "off" });
    expect(off.status).toBe(303);
    try {
      const page = await ownerRequest(bob, "/owner");
      expect(page.status).toBe(404);
      expect(visibleText(page.body)).toContain("Owner sign-in is turned off on this site.");
      expect((await ownerRequest(bob, `/owner/domains/${ids.bob}`)).status).toBe(404);
      expect((await ownerRequest(bob, "/owner/export/inquiries.csv")).status).toBe(404);
      const ask = await ownerRequest(new CookieJar(), "/owner", { form: { intent: "send-code", email: BOB } });
      expect(ask.status).toBe(404);
    } finally {
      await adminPost({ intent: "owner-sign-in", value: "on" });
    }
    expect(visibleText((await ownerRequest(bob, "/owner")).body)).toContain("Owner sign-in");
  });
});
