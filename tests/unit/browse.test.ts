import { describe, expect, it } from "vitest";
import { browseHref, ignoredNotes, readBrowseQuery } from "../../app/lib/browse";
import { categorySlug, parseCategoryList } from "../../app/lib/categories";

const read = (query: string) => readBrowseQuery(new URLSearchParams(query));

describe("browse filters from the URL", () => {
  it("reads each filter and writes equal filters as one URL", () => {
    const query = read(
      "sort=price-asc&ext=.IO&min=$1,000&max=20000.50&len=8&nohyphen=on&nodigit=1&cat=Tech&q=+nova+&page=3",
    );
    expect(query.ignored).toEqual({});
    expect(query.filters).toEqual({
      q: "nova",
      ext: "io",
      minCents: 100_000,
      maxCents: 2_000_050,
      maxLength: 8,
      noHyphens: true,
      noDigits: true,
      category: "tech",
      sort: "price-asc",
    });
    expect(browseHref(query.filters, query.page)).toBe(
      "/?q=nova&ext=io&min=1000&max=20000.50&len=8&nohyphen=1&nodigit=1&cat=tech&sort=price-asc&page=3",
    );
    expect(browseHref(read("max=&len=&sort=newest&nodigit=0").filters)).toBe("/");
  });

  it("ignores bad values and says so once each", () => {
    const query = read("min=abc&max=1e3&len=64&sort=cheap&ext=a_b&cat=-x");
    expect(query.filters).toEqual(read("").filters);
    expect(ignoredNotes(query.ignored)).toEqual([
      'There is no extension ".a_b" here, so it was ignored.',
      '"abc" is not a usable min price, so it was ignored.',
      '"1e3" is not a usable max price, so it was ignored.',
      '"64" is not a length from 1 to 63, so it was ignored.',
      'There is no category "-x", so it was ignored.',
      '"cheap" is not a sort order, so the newest come first.',
    ]);
    const swapped = read("min=500&max=100");
    expect([swapped.filters.minCents, swapped.filters.maxCents]).toEqual([null, null]);
    expect(ignoredNotes(swapped.ignored)).toEqual(["The min price is above the max price, so both were ignored."]);
    expect(read(`min=${"9".repeat(300)}`).ignored.min).toHaveLength(20);
  });
});

describe("category names", () => {
  it("slugs names and reads a |-separated list", () => {
    expect(categorySlug(" Café & Bar ")).toBe("cafe-bar");
    expect(parseCategoryList("Tech | | tech | Food & Drink")).toEqual([
      { slug: "tech", name: "Tech" },
      { slug: "food-drink", name: "Food & Drink" },
    ]);
    expect(parseCategoryList("!!!")).toEqual({ error: 'Category "!!!" needs at least one letter or digit' });
    expect(parseCategoryList(Array.from({ length: 11 }, (_, i) => `c${i}`).join("|"))).toEqual({
      error: "At most 10 categories per domain",
    });
  });
});
