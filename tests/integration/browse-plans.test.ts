import { describe, expect, it } from "vitest";
import { useAppServer } from "../support/vitest-server";
import { insertRows } from "../support/data";
import { untilHeard } from "../support/http";
import { http, visibleText } from "./admin-helpers";

// Issue 24 item 5: without a search term, the home page counts a filter combination from a per-process
// copy of the filter columns (browse-counts.server.ts) and reads its rows either in the sort's order
// (many matches) or by the matching ids (few). Whichever way, the count and the first page must be what
// the database itself says, and a change must show at once.
const app = useAppServer();

const letters = (n: number) =>
  Array.from({ length: n }, (_, i) => String.fromCharCode(97 + ((n * 7 + i) % 26))).join("");
const NAMES = Array.from({ length: 60 }, (_, i) => {
  // Letters only but where a digit or hyphen is meant: about half the names pass "No digits" and "No hyphens".
  const suffix = String.fromCharCode(97 + Math.floor(i / 26), 97 + (i % 26));
  const label = `${letters(3 + (i % 9))}${i % 3 === 0 ? "9" : ""}${i % 4 === 0 ? "-x" : ""}${suffix}`;
  return {
    domain_name: `${label}.${["com", "io", "ai"][i % 3]}`,
    asking_price_cents: ((i * 37) % 50) * 1_000_00 + 500_00,
    minute: i,
  };
});

let seeded = false;
function seed() {
  if (seeded) return;
  seeded = true;
  const stamp = (minute: number) =>
    `2031-01-01T${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}:00.000Z`;
  insertRows(
    app.db(),
    "domains",
    NAMES.map(({ domain_name, asking_price_cents, minute }) => ({
      domain_name,
      asking_price_cents,
      tracking_id: "t",
      owner_email: "",
      created_at: stamp(minute),
      updated_at: stamp(minute),
    })),
  );
  insertRows(app.db(), "categories", [{ slug: "plans-a", name: "Plans A", created_at: stamp(0) }]);
  const category = (app.db().prepare("SELECT id FROM categories WHERE slug = ?").get("plans-a") as { id: number }).id;
  const members = NAMES.filter((_, i) => i % 4 === 1).map((name) => name.domain_name);
  const ids = app
    .db()
    .prepare(`SELECT id FROM domains WHERE domain_name IN (${members.map(() => "?").join(", ")})`)
    .all(...members) as { id: number }[];
  insertRows(
    app.db(),
    "domain_categories",
    ids.map(({ id }) => ({ category_id: category, domain_id: id })),
  );
}

const ORDER: Record<string, string> = {
  newest: "created_at DESC, id DESC",
  "price-asc": "asking_price_cents ASC, id ASC",
  "price-desc": "asking_price_cents DESC, id DESC",
  shortest: "name_length ASC, domain_name ASC",
  name: "domain_name ASC",
};

/** What the database says `query` lists: its count and first page of 24, written plainly. */
function expected(query: URLSearchParams) {
  const where = ["deleted_at IS NULL"];
  const params: unknown[] = [];
  const condition = (name: string, text: string, value: (given: string) => unknown) => {
    const given = query.get(name);
    if (!given) return;
    where.push(text);
    params.push(value(given));
  };
  condition("ext", "tld = ?", String);
  condition("min", "asking_price_cents >= ?", (given) => Number(given) * 100);
  condition("max", "asking_price_cents <= ?", (given) => Number(given) * 100);
  condition("len", "name_length <= ?", Number);
  if (query.get("nodigit")) where.push("has_digit = 0");
  if (query.get("nohyphen")) where.push("has_hyphen = 0");
  if (query.get("cat")) {
    where.push(
      "id IN (SELECT dc.domain_id FROM domain_categories dc JOIN categories c ON c.id = dc.category_id WHERE c.slug = ?)",
    );
    params.push(query.get("cat"));
  }
  const sql = `FROM domains WHERE ${where.join(" AND ")}`;
  const total = Number(
    (
      app
        .db()
        .prepare(`SELECT count(*) AS n ${sql}`)
        .get(...params) as { n: number }
    ).n,
  );
  const order = ORDER[query.get("sort") ?? "newest"]!;
  const rows = app
    .db()
    .prepare(`SELECT domain_name ${sql} ORDER BY ${order} LIMIT 24`)
    .all(...params) as {
    domain_name: string;
  }[];
  return { total, listed: rows.map((row) => row.domain_name.replace(/\.com$/, "")) };
}

async function listed(query: string) {
  seed();
  // This test writes to the database itself: the server hears of it at once on SQLite, within 750 ms on
  // PostgreSQL (NOTIFY); a page asked for before that is the previous version's, as for any process.
  await untilHeard(app);
  const page = await http(app, `/?${query}`);
  expect(page.status, query).toBe(200);
  const text = visibleText(page.body);
  const total = Number(/([\d,]+) names?\b/.exec(text)?.[1]?.replace(/,/g, "") ?? "NaN");
  return { total, listed: [...page.body.matchAll(/href="\/domain\/([^"#?]+)"/g)].map((match) => match[1]!) };
}

describe("home page filters without a search term", () => {
  it("count and list what the database holds, for broad and narrow combinations and every sort", async () => {
    const combinations = [
      "nodigit=1", // about half: read in the sort's order
      "nohyphen=1&nodigit=1",
      "ext=com&len=6", // a few: read by id
      "min=20000&max=30000&ext=io",
      "len=4&nodigit=1&nohyphen=1",
      "cat=plans-a",
      "cat=plans-a&min=10000",
      "ext=ai&len=5&nohyphen=1",
      "ext=nope.example", // unknown extensions are ignored with a note: the whole list
      "min=49000000", // none
    ];
    for (const combination of combinations) {
      for (const sort of Object.keys(ORDER)) {
        const query = new URLSearchParams(`${combination}&sort=${sort}`);
        const page = await listed(query.toString());
        const ignoredExtension = query.get("ext") === "nope.example";
        if (ignoredExtension) query.delete("ext");
        expect(page, query.toString()).toEqual(expected(query));
      }
    }
  });

  it("counts a change at once", async () => {
    const before = await listed("ext=io&len=6&sort=name");
    insertRows(app.db(), "domains", [
      {
        domain_name: "aaplan.io",
        asking_price_cents: 700_00,
        tracking_id: "t",
        owner_email: "",
        created_at: "2031-02-01T00:00:00.000Z",
        updated_at: "2031-02-01T00:00:00.000Z",
      },
    ]);
    const after = await listed("ext=io&len=6&sort=name");
    expect(after.total).toBe(before.total + 1);
    expect(after.listed).toContain("aaplan.io");
    expect(after).toEqual(expected(new URLSearchParams("ext=io&len=6&sort=name")));
    app
      .db()
      .prepare("UPDATE domains SET deleted_at = ? WHERE domain_name = ?")
      .run("2031-02-02T00:00:00.000Z", "aaplan.io");
    expect(await listed("ext=io&len=6&sort=name")).toEqual(before);
  });
});
