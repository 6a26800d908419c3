import { describe, expect, it } from "vitest";
import { softDeleteDomain } from "../../app/server/admin/admin-domains.server";
import { createDomain } from "../support/factories";
import { letterTag } from "../support/data";
import { render } from "../support/in-process/document";

// Issue 24 item 4: "More names like this" on a domain page and lander: links only, best first.
const tag = letterTag("s", 4);
const PRICE = 5_000_000_000;

function similarLinks(html: string): string[] {
  const section = /id="similar-heading"[\s\S]*?<\/section>/.exec(html)?.[0] ?? "";
  return [...section.matchAll(/href="\/domain\/([^"]+)"/g)].map((match) => match[1]!);
}

describe("more names like this", () => {
  it("lists a shared category first, then a shared prefix, the same owner and the closest prices", async () => {
    const category = `${tag} Cat`;
    await createDomain({
      name: `${tag}ly.com`,
      priceCents: PRICE,
      storedOwnerEmail: `Owner-${tag}@Example.test`,
      categories: [category],
    });
    await createDomain({ name: `zz${tag}cat.com`, priceCents: 100, categories: [category] });
    const prefixed = await createDomain({ name: `${tag}base.io`, priceCents: 200 });
    await createDomain({ name: `zz${tag}pal.net`, priceCents: 300, storedOwnerEmail: ` owner-${tag}@example.test` });
    await createDomain({ name: `zz${tag}above.com`, priceCents: PRICE + 100 });
    await createDomain({ name: `zz${tag}below.com`, priceCents: PRICE - 200 });
    await createDomain({ name: `zz${tag}far.com`, priceCents: PRICE - 10_000 });

    const page = await render(`/domain/${tag}ly`);
    expect(page.body).toContain("More names like this");
    expect(similarLinks(page.body)).toEqual([
      `zz${tag}cat`,
      `${tag}base.io`,
      `zz${tag}pal.net`,
      `zz${tag}above`,
      `zz${tag}below`,
      `zz${tag}far`,
    ]);
    // The same on the name's own lander (its Host).
    const lander = await render("/", { headers: { Host: `${tag}ly.com` } });
    expect(similarLinks(lander.body)).toEqual(similarLinks(page.body));
    // Never the page's own name, nor a deleted one.
    await softDeleteDomain(prefixed.id);
    const after = similarLinks((await render(`/domain/${tag}ly`)).body);
    expect(after).not.toContain(`${tag}base.io`);
    expect(after).not.toContain(`${tag}ly`);
    expect(after).toHaveLength(6);
  });

  it("takes the newest names of all the name's categories together", async () => {
    const t = letterTag("m", 4);
    const [one, two] = [`${t}-one`, `${t}-two`];
    await createDomain({ name: `${t}base.com`, priceCents: PRICE, categories: [one, two] });
    // Added in this order: ids grow, so the newest are the last ones; one name is in both.
    const names: string[] = [];
    for (const [i, label] of ["qa", "qb", "qc", "qd", "qe", "qf", "qg", "qh"].entries()) {
      const categories = label === "qh" ? [one, two] : [i % 2 === 0 ? one : two];
      await createDomain({ name: `zz${t}${label}.net`, priceCents: 100 + i, categories });
      names.push(`zz${t}${label}.net`);
    }
    const links = similarLinks((await render(`/domain/${t}base`)).body);
    expect(links).toEqual(names.slice(2).reverse());
  });
});
