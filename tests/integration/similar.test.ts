import { describe, expect, it } from "vitest";
import { useAppServer } from "../support/vitest-server";
import { insertDomain, letterTag } from "../support/data";
import { requestWithHost } from "../support/raw-http";
import { http } from "./admin-helpers";

// Issue 24 item 4: "More names like this" on a domain page and lander: links only, best first.
const app = useAppServer();
const tag = letterTag("s", 4);
const PRICE = 5_000_000_000;

function similarLinks(html: string): string[] {
  const section = /id="similar-heading"[\s\S]*?<\/section>/.exec(html)?.[0] ?? "";
  return [...section.matchAll(/href="\/domain\/([^"]+)"/g)].map((match) => match[1]!);
}

describe("more names like this", () => {
  it("lists a shared category first, then a shared prefix, the same owner and the closest prices", async () => {
    const db = app.db();
    const base = insertDomain(db, { name: `${tag}ly.com`, priceCents: PRICE, ownerEmail: `Owner-${tag}@Example.test` });
    const sameCategory = insertDomain(db, { name: `zz${tag}cat.com`, priceCents: 100 });
    insertDomain(db, { name: `${tag}base.io`, priceCents: 200 });
    insertDomain(db, { name: `zz${tag}pal.net`, priceCents: 300, ownerEmail: ` owner-${tag}@example.test` });
    insertDomain(db, { name: `zz${tag}above.com`, priceCents: PRICE + 100 });
    insertDomain(db, { name: `zz${tag}below.com`, priceCents: PRICE - 200 });
    insertDomain(db, { name: `zz${tag}far.com`, priceCents: PRICE - 10_000 });
    db.prepare("INSERT INTO categories (slug, name, created_at) VALUES (?, ?, ?)").run(
      `${tag}-cat`,
      `${tag} Cat`,
      new Date().toISOString(),
    );
    const category = (db.prepare("SELECT id FROM categories WHERE slug = ?").get(`${tag}-cat`) as { id: number }).id;
    db.prepare("INSERT INTO domain_categories (category_id, domain_id) VALUES (?, ?), (?, ?)").run(
      category,
      base,
      category,
      sameCategory,
    );

    const page = await http(app, `/domain/${tag}ly`);
    expect(page.body).toContain("More names like this");
    expect(similarLinks(page.body)).toEqual([
      `zz${tag}cat`,
      `${tag}base.io`,
      `zz${tag}pal.net`,
      `zz${tag}above`,
      `zz${tag}below`,
      `zz${tag}far`,
    ]);
    const lander = await requestWithHost(app.url, "/", `${tag}ly.com`);
    expect(similarLinks(lander.body)).toEqual(similarLinks(page.body));
    // Never the page's own name, nor a deleted one.
    db.prepare("UPDATE domains SET deleted_at = ? WHERE domain_name = ?").run(
      new Date().toISOString(),
      `${tag}base.io`,
    );
    const after = similarLinks((await http(app, `/domain/${tag}ly`)).body);
    expect(after).not.toContain(`${tag}base.io`);
    expect(after).not.toContain(`${tag}ly`);
    expect(after).toHaveLength(6);
  });

  it("takes the newest names of all the name's categories together", async () => {
    const db = app.db();
    const t = letterTag("m", 4);
    const base = insertDomain(db, { name: `${t}base.com`, priceCents: PRICE });
    const now = new Date().toISOString();
    const category = (slug: string) => {
      db.prepare("INSERT INTO categories (slug, name, created_at) VALUES (?, ?, ?)").run(slug, slug, now);
      return (db.prepare("SELECT id FROM categories WHERE slug = ?").get(slug) as { id: number }).id;
    };
    const [one, two] = [category(`${t}-one`), category(`${t}-two`)];
    const link = (categoryId: number, domainId: number) =>
      db.prepare("INSERT INTO domain_categories (category_id, domain_id) VALUES (?, ?)").run(categoryId, domainId);
    link(one, base);
    link(two, base);
    // Inserted in this order: ids grow, so the newest are the last ones; one name is in both.
    const names = ["qa", "qb", "qc", "qd", "qe", "qf", "qg", "qh"].map((label, i) => {
      const id = insertDomain(db, { name: `zz${t}${label}.net`, priceCents: 100 + i });
      link(i % 2 === 0 ? one : two, id);
      if (label === "qh") link(one, id);
      return `zz${t}${label}.net`;
    });
    const links = similarLinks((await http(app, `/domain/${t}base`)).body);
    expect(links).toEqual(names.slice(2).reverse());
  });
});
