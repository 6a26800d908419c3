import { parse } from "csv-parse/sync";
import { beforeAll, describe, expect, it } from "vitest";
import { TEXT } from "../../app/lib/admin-forms";
import { db } from "../../app/server/db/database.server";
import { CookieJar } from "../support/cookie-jar";
import { letterTag } from "../support/data";
import { createAdmin, createDomain, signInOwner, type TestAdmin } from "../support/factories";
import { render, type Page } from "../support/in-process/document";
import { uploadPortfolioCsv } from "../support/in-process/portfolio";
import { visibleText } from "../support/visible-text";

// Issue 37 item 1: a domain's "Buy now price", given by the admin (Add Domain, the domain's admin page, the
// portfolio CSV's buy_now_price column) and by the owner (the Prices form).
let admin: TestAdmin;
beforeAll(async () => {
  admin = await createAdmin();
});

const tag = letterTag("bn", 4);
const asAdmin = (path: string, form?: Record<string, string>) => render(path, { cookie: admin.cookie, form });
const domainNamed = (name: string) =>
  db
    .selectFrom("domains")
    .select(["id", "buy_now_cents", "min_offer_cents"])
    .where("domain_name", "=", name)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
const buyNowOf = async (name: string) => {
  const cents = (await domainNamed(name))?.buy_now_cents;
  return cents === null || cents === undefined ? cents : Number(cents);
};
/** The value an input with this id shows (what the field holds when the page is rendered). */
function fieldValue(page: Page, id: string): string | undefined {
  const input = new RegExp(`<input[^>]*id="${id}"[^>]*>`).exec(page.body)?.[0];
  if (input === undefined) throw new Error(`no input #${id} on the page`);
  return /\svalue="([^"]*)"/.exec(input)?.[1];
}

const BAD_VALUES = [
  { typed: "lots", message: TEXT.buyNowNotAnAmount },
  { typed: "0", message: TEXT.buyNowNotPositive },
  { typed: "-250", message: TEXT.buyNowNotPositive },
  { typed: "100000000.01", message: TEXT.buyNowTooLarge },
];

describe("the buy now price", () => {
  it("is given in the Add Domain dialog; a bad one is refused with a message and the text kept", async () => {
    const name = `${tag}add.com`;
    const entry = { intent: "add", domainName: name, askingPrice: "5000", trackingId: "t", ownerEmail: "" };
    for (const { typed, message } of BAD_VALUES) {
      const refused = await asAdmin("/admin?add=1", { ...entry, buyNowPrice: typed });
      expect(refused.status, typed).toBe(400);
      expect(visibleText(refused.body)).toContain(`Error adding domain: ${message}`);
      expect(fieldValue(refused, "add-buyNowPrice")).toBe(typed);
      expect(await domainNamed(name)).toBeUndefined();
    }
    const added = await asAdmin("/admin?add=1", { ...entry, buyNowPrice: "$12,500.50" });
    expect(added.status).toBe(303);
    expect(await buyNowOf(name)).toBe(1_250_050);

    const none = `${tag}addnone.com`;
    expect((await asAdmin("/admin?add=1", { ...entry, domainName: none, buyNowPrice: " " })).status).toBe(303);
    expect(await buyNowOf(none)).toBeNull();
  });

  it("is set, kept and cleared on the domain's admin page, never below the minimum offer", async () => {
    const domain = await createDomain({ prefix: `${tag}edit` });
    const path = `/admin/domains/${domain.id}`;
    const saved = await asAdmin(path, { intent: "buy-now", buyNowPrice: "25000" });
    expect(saved.status).toBe(303);
    const page = await asAdmin(saved.location!);
    expect(visibleText(page.body)).toContain("Buy now price saved.");
    expect(fieldValue(page, "buy-now-price")).toBe("25000.00");

    for (const { typed, message } of BAD_VALUES) {
      const refused = await asAdmin(path, { intent: "buy-now", buyNowPrice: typed });
      expect(refused.status, typed).toBe(400);
      expect(visibleText(refused.body)).toContain(message);
      expect(fieldValue(refused, "buy-now-price")).toBe(typed);
    }
    expect(await buyNowOf(domain.domain_name)).toBe(2_500_000);

    // The minimum offer is the owner's floor: a buy now price below it, or a floor above it, is refused.
    const highFloor = await asAdmin(path, { intent: "min-offer", minOffer: "30000" });
    expect(highFloor.status).toBe(400);
    expect(visibleText(highFloor.body)).toContain("The minimum offer cannot be above the buy now price ($25,000).");
    expect((await asAdmin(path, { intent: "min-offer", minOffer: "20000" })).status).toBe(303);
    const below = await asAdmin(path, { intent: "buy-now", buyNowPrice: "19999.99" });
    expect(below.status).toBe(400);
    expect(visibleText(below.body)).toContain("The buy now price cannot be below the minimum offer ($20,000).");
    expect(fieldValue(below, "buy-now-price")).toBe("19999.99");
    expect(await buyNowOf(domain.domain_name)).toBe(2_500_000);
    expect((await asAdmin(path, { intent: "buy-now", buyNowPrice: "20000" })).status).toBe(303);
    expect(await buyNowOf(domain.domain_name)).toBe(2_000_000);

    const cleared = await asAdmin(path, { intent: "buy-now", buyNowPrice: "" });
    expect(cleared.location).toBe(`${path}?notice=buy-now-cleared`);
    expect(await buyNowOf(domain.domain_name)).toBeNull();
  });

  it("is on the owner's Prices form for the owner's own names", async () => {
    const owner = `${tag}@owners.example`;
    const domain = await createDomain({ prefix: `${tag}own`, ownerEmail: owner });
    const jar = new CookieJar();
    const [cookieName, cookieValue] = (await signInOwner(owner)).split("=");
    jar.cookies.set(cookieName!, cookieValue!);
    const path = `/owner/domains/${domain.id}`;
    const prices = (buyNowPrice: string, minOffer = "") =>
      render(path, { jar, form: { intent: "prices", askingPrice: "3000", minOffer, buyNowPrice } });

    const saved = await prices("4500");
    expect(saved.status).toBe(303);
    expect(await buyNowOf(domain.domain_name)).toBe(450_000);
    expect(fieldValue(await render(path, { jar }), "buy-now-price")).toBe("4500.00");

    for (const { typed, message } of [
      ...BAD_VALUES,
      { typed: "999", message: "The buy now price cannot be below the minimum offer ($1,000)." },
    ]) {
      const refused = await prices(typed, "1000");
      expect(refused.status, typed).toBe(400);
      expect(visibleText(refused.body)).toContain(message);
      expect(fieldValue(refused, "buy-now-price")).toBe(typed);
    }
    expect(await buyNowOf(domain.domain_name)).toBe(450_000);

    expect((await prices("")).status).toBe(303);
    expect(await buyNowOf(domain.domain_name)).toBeNull();
  });
});

describe("the CSV's buy_now_price column", () => {
  const upload = (text: string) => uploadPortfolioCsv(admin.cookie, text);

  it("is imported in dollars, exported again, and kept by a file without it", async () => {
    const imported = await upload(
      [
        "domain,price,tracking_id,owner_email,buy_now_price",
        `${tag}csv1.com,100,t1,,"1,500.25"`,
        `${tag}csv2.com,200,t2,,`,
      ].join("\n"),
    );
    expect(imported.location).toBe("/admin/portfolio?added=2&updated=0");
    expect(await buyNowOf(`${tag}csv1.com`)).toBe(150_025);
    expect(await buyNowOf(`${tag}csv2.com`)).toBeNull();

    const exported = (await asAdmin("/admin/export/domains.csv")).body;
    const rows = (parse(exported, { bom: true, columns: true }) as Array<Record<string, string>>).filter((row) =>
      row.domain!.startsWith(`${tag}csv`),
    );
    expect(rows.map((row) => [row.domain, row.buy_now_price])).toEqual([
      [`${tag}csv1.com`, "1500.25"],
      [`${tag}csv2.com`, ""],
    ]);
    expect(exported).toMatch(new RegExp(`^"${tag}csv1\\.com",.*,1500\\.25$`, "m"));

    // An older file, without the column, still imports and keeps the price; an empty cell removes it.
    expect((await upload(`${tag}csv1.com,150,t1,`)).location).toBe("/admin/portfolio?added=0&updated=1");
    expect(await buyNowOf(`${tag}csv1.com`)).toBe(150_025);
    await upload(["domain,price,tracking_id,owner_email,buy_now_price", `${tag}csv1.com,150,t1,,`].join("\n"));
    expect(await buyNowOf(`${tag}csv1.com`)).toBeNull();
  });

  it("refuses a bad value with its line number, and imports nothing", async () => {
    const refused = await upload(
      [
        "domain,price,tracking_id,owner_email,buy_now_price",
        `${tag}csvok.com,100,t,,900`,
        ...BAD_VALUES.map(({ typed }, index) => `${tag}csvbad${index}.com,100,t,,${typed}`),
      ].join("\n"),
    );
    expect(refused.status).toBe(400);
    const lines = [...refused.body.matchAll(/<tr><td class="py-2 pr-4">(\d+)<\/td><td class="py-2">([^<]*)<\/td>/g)];
    expect(lines.map((match) => [Number(match[1]), match[2]!.replace(/&#x27;/g, "'")])).toEqual(
      BAD_VALUES.map(({ message }, index) => [index + 3, message]),
    );
    expect(await domainNamed(`${tag}csvok.com`)).toBeUndefined();
  });

  it("refuses a listed name's buy now price below its minimum offer, with the line number", async () => {
    const domain = await createDomain({ prefix: `${tag}floor` });
    expect((await asAdmin(`/admin/domains/${domain.id}`, { intent: "min-offer", minOffer: "2000" })).status).toBe(303);
    const file = (buyNow: string) =>
      [
        "domain,price,tracking_id,owner_email,buy_now_price",
        `${tag}csvnew.com,100,t,,50`,
        `${domain.domain_name},3000,t,,${buyNow}`,
      ].join("\n");
    const refused = await upload(file("1999.99"));
    expect(refused.status).toBe(400);
    expect(refused.body).toContain(
      '<tr><td class="py-2 pr-4">3</td><td class="py-2">The buy now price cannot be below the minimum offer ($2,000).</td>',
    );
    expect(await domainNamed(`${tag}csvnew.com`)).toBeUndefined();
    expect((await upload(file("2000"))).location).toBe("/admin/portfolio?added=1&updated=1");
    expect(await buyNowOf(domain.domain_name)).toBe(200_000);
  });
});
