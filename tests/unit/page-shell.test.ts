import { describe, expect, it } from "vitest";
import { matchRoutes } from "react-router";
import {
  CONTACT_FIELDS,
  contractMismatch,
  LANDER_FIELDS,
  shellRouteFor,
} from "../../app/server/http/domain-shell.server";
import { cutShell, fillShell, isInert } from "../../app/server/http/page-shell.server";

const MARKER = /zqvx/i;

describe("a prepared shell", () => {
  it("cuts a page at its sample strings, longest first, and fills them back", () => {
    const samples = { name: "zqvx0.com", short: "zqvx0", url: "http://zqvx.test/domain/zqvx0" };
    const shell = cutShell(
      '<title>zqvx0.com</title><a href="/pay/zqvx0">x</a><link href="http://zqvx.test/domain/zqvx0">',
      samples,
      MARKER,
    );
    expect(shell?.holes).toEqual(["name", "short", "url"]);
    const page = fillShell(shell!, { name: "velora.com", short: "velora", url: "https://example.test/domain/velora" });
    expect(page?.toString()).toBe(
      '<title>velora.com</title><a href="/pay/velora">x</a><link href="https://example.test/domain/velora">',
    );
  });

  it("is refused when the page shows a form of a sample string it was not told of", () => {
    expect(cutShell("<h1>zqvx0.com</h1><p>ZQVX0.COM</p>", { name: "zqvx0.com" }, MARKER)).toBeNull();
  });

  it("fills equal samples only with equal strings", () => {
    const shell = cutShell("<h1>zqvx0.com</h1><p>zqvx0.com</p>", { name: "zqvx0.com", shown: "zqvx0.com" }, MARKER)!;
    expect(fillShell(shell, { name: "a.de", shown: "a.de" })?.toString()).toBe("<h1>a.de</h1><p>a.de</p>");
    expect(fillShell(shell, { name: "xn--mnchen-3ya.de", shown: "münchen.de" })).toBeNull();
  });

  it("takes no string that HTML, JSON or a script string would write otherwise", () => {
    const shell = cutShell("<p>zqvx0</p>", { name: "zqvx0" }, MARKER)!;
    for (const bad of ['a"b', "a<b", "a&b", "a'b", "a\\b", "a\u2028b", "💩", "", "a\nb"]) {
      expect(isInert(bad), bad).toBe(false);
      expect(fillShell(shell, { name: bad }), bad).toBeNull();
    }
    expect(fillShell(shell, { name: "münchen.de" })?.toString()).toBe("<p>münchen.de</p>");
  });

  it("writes the page as UTF-8 bytes, parts and values alike", () => {
    const shell = cutShell("<p>café — zqvx0 🚀</p><i>zqvx1</i>", { name: "zqvx0", pitch: "zqvx1" }, MARKER)!;
    const page = fillShell(shell, { name: "münchen.de", pitch: "Grüße 💩 &amp;" }, new Set(["pitch"]));
    expect(page).toEqual(Buffer.from("<p>café — münchen.de 🚀</p><i>Grüße 💩 &amp;</i>"));
  });
});

describe("the shells' contract with the domain route's data", () => {
  const listed = {
    siteName: "Domains",
    page: {
      siteName: "Domains",
      domain: { name: "velora.com", askingPriceCents: 100 },
      feeCents: 500,
      canonicalUrl: "http://x/domain/velora",
      replyDays: null,
      categories: [{ slug: "travel", name: "Travel" }],
      pitch: "A name for a travel brand.",
      similarHtml: "",
      feePromise: "Refunded automatically if the owner doesn't reply within 7 days.",
    },
  };

  it("holds for the route's data as it is, a listed domain's and a 404's", () => {
    expect(contractMismatch(listed)).toEqual([]);
    expect(contractMismatch({ siteName: "Domains", page: null })).toEqual([]);
  });

  it("names every field added, renamed or missing", () => {
    expect(contractMismatch({ ...listed, page: { ...listed.page, tagline: "new" } })).toEqual(["page.tagline"]);
    const { canonicalUrl: _url, ...withoutUrl } = listed.page;
    expect(contractMismatch({ ...listed, page: { ...withoutUrl, canonical: "x" } })).toEqual([
      "page.canonical",
      "page.canonicalUrl",
    ]);
    expect(
      contractMismatch({ ...listed, page: { ...listed.page, domain: { name: "velora.com", priceCents: 1 } } }),
    ).toEqual(["page.domain.priceCents", "page.domain.askingPriceCents"]);
  });

  it("holds for a lander's and a contact page's data, and names what they lack", () => {
    const lander = { kind: "lander", lander: listed.page, browseUrl: null };
    expect(contractMismatch(lander, LANDER_FIELDS)).toEqual([]);
    const { similarHtml: _similar, ...withoutSimilar } = listed.page;
    expect(contractMismatch({ ...lander, lander: withoutSimilar }, LANDER_FIELDS)).toEqual(["lander.similarHtml"]);
    expect(contractMismatch({ siteName: "Domains", domainName: "velora.com" }, CONTACT_FIELDS)).toEqual([]);
    expect(contractMismatch({ siteName: "Domains", name: "velora.com" }, CONTACT_FIELDS)).toEqual([
      "name",
      "domainName",
    ]);
  });
});

describe("the route of a page a shell may stand in for", () => {
  const tree = [
    {
      id: "root",
      path: "",
      children: [
        { id: "routes/home", index: true },
        { id: "routes/domain", path: "domain/:domainName" },
        { id: "routes/contact", path: "contact/:domainName" },
        { id: "routes/not-found", path: "*" },
      ],
    },
  ];

  it("is React Router's own match, params decoded alike", () => {
    for (const target of [
      "/",
      "/domain/velora",
      "/domain/velora.io",
      "/contact/velora",
      `/domain/${encodeURIComponent("münchen.de")}`,
      "/domain/a%252Fb",
      "/domain/a%2Fb",
      "/domain/%E0%A4%A",
      "/contact/xn--mnchen-3ya.de",
    ]) {
      const found = shellRouteFor(target);
      const leaf = matchRoutes(tree, target)!.at(-1)!;
      expect(found?.kind.route, target).toBe(leaf.route.id);
      expect(found?.params, target).toEqual(leaf.params);
    }
  });

  it("is none for a query, a data request or another path", () => {
    for (const target of ["/?q=x", "/domain/velora?x=1", "/domain/velora.data", "/category/travel", "/domain/"]) {
      expect(shellRouteFor(target), target).toBeNull();
    }
  });
});
