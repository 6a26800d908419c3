import { describe, expect, it } from "vitest";
import { useAppServer } from "../support/vitest-server";
import { insertRows, letterTag } from "../support/data";
import { http, visibleText } from "./admin-helpers";

// The home page's filters and sort (issue 24) over HTTP: what a browser without JavaScript gets.
const app = useAppServer();

// Short names of one tag, so a length filter can tell them apart: the tag is letters only.
const tag = letterTag("qz", 3);
const at = (minute: number) => `2030-01-01T00:${String(minute).padStart(2, "0")}:00.000Z`;
const NAMES = [
  { name: `${tag}.io`, cents: 50_000_00, minute: 1 }, // 5 characters
  { name: `${tag}a.com`, cents: 1_200_00, minute: 2 }, // 6
  { name: `${tag}-go.com`, cents: 9_000_00, minute: 3 }, // 8, hyphen
  { name: `${tag}9.ai`, cents: 3_000_00, minute: 4 }, // 6, digit
  { name: `${tag}cloud.com`, cents: 25_000_00, minute: 5 }, // 10
  { name: `${tag}-7x.io`, cents: 700_00, minute: 6 }, // 8, hyphen and digit
];

let seeded = false;
function seed() {
  if (seeded) return;
  seeded = true;
  insertRows(
    app.db(),
    "domains",
    NAMES.map(({ name, cents, minute }) => ({
      domain_name: name,
      asking_price_cents: cents,
      tracking_id: "t",
      owner_email: "",
      created_at: at(minute),
      updated_at: at(minute),
    })),
  );
}

async function browse(query: string) {
  seed();
  const page = await http(app, `/?${query}`);
  const listed = [...page.body.matchAll(/href="\/domain\/([^"#?]+)"/g)].map((match) => match[1]!);
  return { ...page, text: visibleText(page.body), listed };
}

const short = (name: string) => name.replace(/\.com$/, "");
const names = (...indexes: number[]) => indexes.map((index) => short(NAMES[index]!.name));

describe("home page filters", () => {
  it("filters by extension, price range, max length, hyphens and digits, each and together", async () => {
    expect((await browse(`q=${tag}`)).listed).toEqual(names(5, 4, 3, 2, 1, 0));
    expect((await browse(`q=${tag}&ext=io`)).listed).toEqual(names(5, 0));
    expect((await browse(`q=${tag}&min=1000&max=9000`)).listed).toEqual(names(3, 2, 1));
    expect((await browse(`q=${tag}&min=25%2C000`)).listed).toEqual(names(4, 0));
    expect((await browse(`q=${tag}&max=1200`)).listed).toEqual(names(5, 1));
    expect((await browse(`q=${tag}&len=6`)).listed).toEqual(names(3, 1, 0));
    expect((await browse(`q=${tag}&nohyphen=1`)).listed).toEqual(names(4, 3, 1, 0));
    expect((await browse(`q=${tag}&nodigit=1`)).listed).toEqual(names(4, 2, 1, 0));
    expect((await browse(`q=${tag}&nohyphen=1&nodigit=1&len=6`)).listed).toEqual(names(1, 0));
    expect((await browse(`q=${tag}&ext=com&max=10000&nohyphen=1`)).listed).toEqual(names(1));
    const none = await browse(`q=${tag}&ext=ai&min=5000`);
    expect(none.listed).toEqual([]);
    expect(none.text).toContain("0 names");
    expect(none.text).toContain("No domains match your search.");
  });

  it("sorts by price, length and name, and says how many names match", async () => {
    expect((await browse(`q=${tag}&sort=price-asc`)).listed).toEqual(names(5, 1, 3, 2, 4, 0));
    expect((await browse(`q=${tag}&sort=price-desc`)).listed).toEqual(names(0, 4, 2, 3, 1, 5));
    // Shortest first, ties by name.
    expect((await browse(`q=${tag}&sort=shortest`)).listed).toEqual(names(0, 3, 1, 5, 2, 4));
    expect((await browse(`q=${tag}&sort=name`)).listed).toEqual(names(5, 2, 0, 3, 1, 4));
    const page = await browse(`q=${tag}&nodigit=1`);
    expect(page.text).toContain(`4 names matching "${tag}"`);
    expect(page.text).toContain("Clear filters");
    expect(page.body).toMatch(/<a[^>]*href="\/#domains"[^>]*>Clear filters</);
  });

  it("sorts by most viewed", async () => {
    seed();
    const ids = app
      .db()
      .prepare(`SELECT id, domain_name FROM domains WHERE domain_name IN (?, ?)`)
      .all(NAMES[1]!.name, NAMES[4]!.name) as {
      id: number;
      domain_name: string;
    }[];
    const id = (name: string) => ids.find((row) => row.domain_name === name)!.id;
    insertRows(app.db(), "domain_view_totals", [
      { domain_id: id(NAMES[1]!.name), views: 40 },
      { domain_id: id(NAMES[4]!.name), views: 7 },
    ]);
    expect((await browse(`q=${tag}&sort=views`)).listed).toEqual(names(1, 4, 5, 3, 2, 0));
  });

  it("offers the extensions present with their counts, and the sort options", async () => {
    const page = await browse("");
    const count = (tld: string) =>
      (
        app
          .db()
          .prepare(`SELECT count(*) AS n FROM domains WHERE deleted_at IS NULL AND domain_name LIKE ?`)
          .get(`%.${tld}`) as { n: number }
      ).n;
    for (const tld of ["com", "io", "ai"]) {
      expect(page.body).toContain(
        `<option value="${tld}">.${tld} (${Number(count(tld)).toLocaleString("en-US")})</option>`,
      );
    }
    expect(page.body).not.toContain('<option value="xyz">');
    for (const label of [
      "Newest",
      "Price: low to high",
      "Price: high to low",
      "Shortest first",
      "Name A-Z",
      "Most viewed",
    ]) {
      expect(page.body).toContain(`>${label}</option>`);
    }
    for (const label of ["Extension", "Min price", "Max price", "Max length", "No hyphens", "No digits", "Sort by"]) {
      expect(page.text).toContain(label);
    }
    const total = (
      app.db().prepare(`SELECT count(*) AS n FROM domains WHERE deleted_at IS NULL`).get() as { n: number }
    ).n;
    expect(page.text).toContain(`${Number(total).toLocaleString("en-US")} names`);
    // An extension alone is counted from the extension counts: the same figure.
    const io = await browse("ext=io");
    expect(io.text).toContain(`${Number(count("io")).toLocaleString("en-US")} names`);
    expect(io.listed.every((name) => name.endsWith(".io"))).toBe(true);
  });

  it("keeps the filters in the form and in the page links", async () => {
    const many = `qm${tag.slice(2)}`;
    seed();
    insertRows(
      app.db(),
      "domains",
      Array.from({ length: 30 }, (_, i) => ({
        domain_name: `${many}${String.fromCharCode(97 + (i % 26))}${"x".repeat(Math.floor(i / 26))}.io`,
        asking_price_cents: 100_00 + i,
        tracking_id: "t",
        owner_email: "",
        created_at: at(10),
        updated_at: at(10),
      })),
    );
    const page = await browse(`q=${many}&ext=io&min=100&sort=price-asc&nodigit=1`);
    expect(page.text).toContain(`30 names matching "${many}"`);
    expect(page.listed).toHaveLength(24);
    expect(page.body).toContain(
      `href="/?q=${many}&amp;ext=io&amp;min=100&amp;nodigit=1&amp;sort=price-asc&amp;page=2#domains"`,
    );
    expect(page.body).toMatch(/<option value="io" selected="">/);
    expect(page.body).toMatch(/<option value="price-asc" selected="">/);
    expect(page.body).toMatch(/id="nodigit"[^>]*checked=""/);
    expect(page.body).toMatch(/id="min"[^>]*value="100"/);
    const second = await browse(`q=${many}&ext=io&min=100&nodigit=1&sort=price-asc&page=2`);
    expect(second.listed).toHaveLength(6);
  });

  it("ignores a bad value with a short note, never a 500", async () => {
    const cases: Array<[string, string, string[]]> = [
      [`q=${tag}&min=abc`, '"abc" is not a usable min price, so it was ignored.', names(5, 4, 3, 2, 1, 0)],
      [`q=${tag}&max=12x&ext=io`, '"12x" is not a usable max price, so it was ignored.', names(5, 0)],
      [
        `q=${tag}&min=9000&max=1000`,
        "The min price is above the max price, so both were ignored.",
        names(5, 4, 3, 2, 1, 0),
      ],
      [`q=${tag}&ext=nope`, 'There is no extension ".nope" here, so it was ignored.', names(5, 4, 3, 2, 1, 0)],
      [`q=${tag}&len=0`, '"0" is not a length from 1 to 63, so it was ignored.', names(5, 4, 3, 2, 1, 0)],
      [`q=${tag}&len=6&sort=cheapest`, '"cheapest" is not a sort order, so the newest come first.', names(3, 1, 0)],
    ];
    for (const [query, note, listed] of cases) {
      const page = await browse(query);
      expect(page.status, query).toBe(200);
      expect(page.text, query).toContain(note);
      expect(page.listed, query).toEqual(listed);
    }
    const markup = await browse(`q=${tag}&ext=%3Cb%3E`);
    expect(markup.body).toContain("There is no extension &quot;.&lt;b&gt;&quot; here, so it was ignored.");
    const hostile = await browse(`min=${"9".repeat(400)}&max=-1&len=99999&page=-4&sort[]=x&ext=${"a".repeat(300)}`);
    expect(hostile.status).toBe(200);
    expect(hostile.body).not.toContain("<b>");
  });

  it("tells search engines that filtered lists are the home page's, not documents of their own", async () => {
    const home = await browse("");
    expect(home.body).not.toContain("noindex");
    const filtered = await browse(`ext=io&sort=name`);
    expect(filtered.body).toContain('<meta name="robots" content="noindex, follow"/>');
    expect(filtered.body).toMatch(/<link rel="canonical" href="http:\/\/[^"]+\/"\/>/);
  });

  it("caches a filtered list under one key for equal filters", async () => {
    const first = await http(app, `/?sort=price-desc&ext=io&utm_source=x`);
    const again = await http(app, `/?ext=.IO&sort=price-desc`);
    expect(first.status).toBe(200);
    expect(again.headers.get("x-cache")).toBe("HIT");
    expect(again.body).toBe(first.body);
  });
});
