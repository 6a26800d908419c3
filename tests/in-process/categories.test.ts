import { parse } from "csv-parse/sync";
import { beforeAll, describe, expect, it } from "vitest";
import { categoriesOfDomain } from "../../app/server/catalog/categories.server";
import { db } from "../../app/server/db/database.server";
import { letterTag } from "../support/data";
import { createAdmin, createDomain, type TestAdmin } from "../support/factories";
import { render } from "../support/in-process/document";
import { uploadPortfolioCsv as uploadCsv } from "../support/in-process/portfolio";
import { visibleText } from "../support/visible-text";

// Issue 24 item 2: categories given by the admin, offered by the home page's filter, each with a page.
let admin: TestAdmin;
beforeAll(async () => {
  admin = await createAdmin();
});

const tag = letterTag("ct", 4);
const idOf = async (name: string) =>
  (
    await db
      .selectFrom("domains")
      .select("id")
      .where("domain_name", "=", name)
      .where("deleted_at", "is", null)
      .executeTakeFirstOrThrow()
  ).id;
const categoriesOf = async (name: string) =>
  (await categoriesOfDomain(await idOf(name))).map((category) => category.name).sort();
const asAdmin = (path: string, form?: Record<string, string>) => render(path, { cookie: admin.cookie, form });
const uploadPortfolioCsv = (text: string) => uploadCsv(admin.cookie, text);

describe("categories", () => {
  it("are given in the Add Domain dialog and shown on the domain page, the home filter and their own page", async () => {
    const name = `${tag}alpha.com`;
    const added = await asAdmin("/admin?add=1", {
      intent: "add",
      domainName: name,
      askingPrice: "5000",
      trackingId: "t",
      ownerEmail: "",
      categories: ` Food & Drink | ${tag} Tech |food & drink `,
    });
    expect(added.status).toBe(303);
    expect(await categoriesOf(name)).toEqual(["Food & Drink", `${tag} Tech`]);
    const techSlug = `${tag}-tech`;

    const domainPage = await render(`/domain/${tag}alpha`);
    expect(domainPage.body).toContain(`href="/category/${techSlug}"`);
    expect(domainPage.body).toMatch(/href="\/category\/food-drink"[^>]*>Food &amp; Drink</);

    const beta = await createDomain({ name: `${tag}beta.io`, priceCents: 100_00 });
    await asAdmin(`/admin/domains/${beta.id}`, { intent: "listing", categories: `${tag} Tech` });
    const home = await render("/");
    expect(home.body).toContain(`<option value="${techSlug}">${tag} Tech (2)</option>`);
    const filtered = await render(`/?cat=${techSlug}&sort=name`);
    expect([...filtered.body.matchAll(/href="\/domain\/([^"]+)"/g)].map((m) => m[1])).toEqual([
      `${tag}alpha`,
      `${tag}beta.io`,
    ]);
    expect(visibleText(filtered.body)).toContain("2 names");
    const unknown = await render("/?cat=no-such-category");
    expect(unknown.status).toBe(200);
    expect(visibleText(unknown.body)).toContain('There is no category "no-such-category", so it was ignored.');

    const page = await render(`/category/${techSlug}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain(`<title>${tag} Tech domains for sale | DomainVault</title>`);
    expect(page.body).toMatch(
      new RegExp(`<meta name="description" content="2 premium ${tag} Tech domain names for sale at DomainVault`),
    );
    expect(page.body).toMatch(new RegExp(`<link rel="canonical" href="http://[^"]+/category/${techSlug}"/>`));
    expect(page.body).toContain(`<meta property="og:title" content="${tag} Tech domains for sale | DomainVault"/>`);
    const jsonLd = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/.exec(page.body)![1]!);
    expect(jsonLd["@type"]).toBe("ItemList");
    expect(
      jsonLd.itemListElement.map((item: { name: string; position: number }) => [item.position, item.name]),
    ).toEqual([
      [1, `${tag}beta.io`],
      [2, `${tag}alpha.com`],
    ]);
    expect(page.body).not.toContain("noindex");
    expect((await render("/category/no-such-category")).status).toBe(404);

    const sitemap = await render("/sitemap.xml");
    expect(sitemap.body).toMatch(new RegExp(`<loc>http://[^<]+/category/${techSlug}</loc>`));
  });

  it("are set in the domain's edit form, and a category without live names has no page", async () => {
    const name = `${tag}gamma.com`;
    const { id } = await createDomain({ name, priceCents: 100_00 });
    const saved = await asAdmin(`/admin/domains/${id}`, { intent: "listing", categories: `Solo ${tag}` });
    expect(saved.status).toBe(303);
    expect(saved.location).toBe(`/admin/domains/${id}?notice=listing-saved`);
    const edit = await asAdmin(`/admin/domains/${id}`);
    expect(edit.body).toMatch(new RegExp(`id="categories"[^>]*value="Solo ${tag}"`));
    expect((await render(`/category/solo-${tag}`)).status).toBe(200);
    const tooLong = await asAdmin(`/admin/domains/${id}`, { intent: "listing", categories: "x".repeat(41) });
    expect(tooLong.status).toBe(400);
    expect(visibleText(tooLong.body)).toContain("is longer than 40 characters");
    await asAdmin(`/admin/domains/${id}`, { intent: "listing", categories: "" });
    expect(await categoriesOf(name)).toEqual([]);
    expect((await render(`/category/solo-${tag}`)).status).toBe(404);
  });

  it("round-trip through the CSV's categories column", async () => {
    const imported = await uploadPortfolioCsv(
      [
        "domain,price,tracking_id,owner_email,categories",
        `${tag}csv1.com,100,t1,,'=Formula | Travel`,
        `${tag}csv2.net,200,t2,,`,
        `${tag}csv3.org,300,t3,,Travel`,
      ].join("\n"),
    );
    expect(imported.location).toBe("/admin/portfolio?added=3&updated=0");
    expect(await categoriesOf(`${tag}csv1.com`)).toEqual(["=Formula", "Travel"]);
    expect(await categoriesOf(`${tag}csv3.org`)).toEqual(["Travel"]);

    const exported = (await asAdmin("/admin/export/domains.csv")).body;
    const rows = parse(exported, { bom: true, columns: true }) as Array<Record<string, string>>;
    const mine = rows.filter((row) => row.domain!.startsWith(`${tag}csv`));
    expect(mine.map((row) => [row.domain, row.categories])).toEqual([
      [`${tag}csv1.com`, "'=Formula | Travel"],
      [`${tag}csv2.net`, ""],
      [`${tag}csv3.org`, "Travel"],
    ]);

    // The export imported back changes nothing; an edited cell changes that name's categories only.
    const header = exported.replace(/^\uFEFF/, "").split("\n")[0]!;
    const lines = exported.split("\n").filter((line) => line.startsWith(`"${tag}csv`));
    expect((await uploadPortfolioCsv([header, ...lines].join("\n"))).location).toBe(
      "/admin/portfolio?added=0&updated=3",
    );
    expect(await categoriesOf(`${tag}csv1.com`)).toEqual(["=Formula", "Travel"]);
    const edited = lines.map((line) =>
      line.startsWith(`"${tag}csv3`) ? line.replace(/"Travel","",""$/, '"Travel | Beach","",""') : line,
    );
    await uploadPortfolioCsv([header, ...edited].join("\n"));
    expect(await categoriesOf(`${tag}csv3.org`)).toEqual(["Beach", "Travel"]);
    expect(await categoriesOf(`${tag}csv2.net`)).toEqual([]);

    // A file without the column keeps every name's categories.
    await uploadPortfolioCsv(`${tag}csv3.org,350,t3,`);
    expect(await categoriesOf(`${tag}csv3.org`)).toEqual(["Beach", "Travel"]);
    const bad = await uploadPortfolioCsv(
      ["domain,price,tracking_id,owner_email,categories", `${tag}csv4.com,1,t,,${"y".repeat(50)}`].join("\n"),
    );
    expect(visibleText(bad.body + (bad.location ?? ""))).not.toContain("added=1");
  });
});
