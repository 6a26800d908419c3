import http from "node:http";
import { describe, expect, it } from "vitest";
import { runScript } from "../support/app-server";
import { useAppServer } from "../support/vitest-server";
import { insertDomain, uniqueDomainName } from "../support/data";
import { postForm, request, untilHeard } from "../support/http";
import { waitFor } from "../support/wait";
import { BOT_USER_AGENT, BROWSER_USER_AGENT } from "../support/raw-http";

// Public pages are served from memory after the first render. These tests prove that no visitor ever
// sees a stale fee, price or listing: every write, from whichever process, shows on the next request.

const app = useAppServer();

/** A GET as a browser sends it (node's fetch says "node": a script, which the cache treats as a crawler). */
async function get(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(new URL(path, app.url), {
    headers: { "User-Agent": BROWSER_USER_AGENT, ...headers },
    redirect: "manual",
  });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

/**
 * GETs a page until it is served from the cache, so the next assertion is about invalidation (a write
 * just made by the test, another process, may first empty the cache once more).
 */
async function getCached(path: string) {
  let page = await get(path);
  for (let attempt = 0; attempt < 20 && page.headers.get("x-cache") !== "HIT"; attempt++) page = await get(path);
  expect(page.headers.get("x-cache")).toBe("HIT");
  return page;
}

/**
 * The test's own writes come from another process: the server's memory of the content version hears of
 * them within its bound (under a second, db/content-version.server.ts). GETs until `seen` or a second.
 */
async function getWithin(path: string, seen: (page: Awaited<ReturnType<typeof get>>) => boolean, headers = {}) {
  let page = await get(path, headers);
  await waitFor(
    async () => seen(page) || seen((page = await get(path, headers))),
    1_000,
    `${path} to show the change`,
    20,
  ).catch(() => {});
  return page;
}

function shortName(name: string) {
  return name.replace(/\.com$/, "");
}

function rawGet(
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(new URL(path, app.url), { headers }, (response) => {
        let body = "";
        response.on("data", (chunk) => (body += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      })
      .on("error", reject);
  });
}

describe("page cache: fresh content on every request", () => {
  it("shows a fee changed by the set-fee script within a second", async () => {
    const name = uniqueDomainName("fee");
    insertDomain(app.db(), { name, priceCents: 500_000 });
    await untilHeard(app);
    const before = await getCached(`/domain/${shortName(name)}`);
    expect(before.body).not.toContain("$31.57");

    const result = await runScript(app, "set-fee.ts", ["31.57"]);
    expect(result.code).toBe(0);

    const after = await getWithin(`/domain/${shortName(name)}`, (reply) => reply.body.includes("$31.57"));
    expect(after.body).toMatch(/Start Inquiry \((?:<!-- -->)?\$31\.57/);
    expect(after.headers.get("x-cache")).toBe("MISS");
  });

  it("shows a price changed in the database by another process within a second, on the domain page and the browse page", async () => {
    const name = uniqueDomainName("price");
    const id = insertDomain(app.db(), {
      name,
      priceCents: 111_100,
      createdAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    await untilHeard(app);
    expect((await getCached(`/domain/${shortName(name)}`)).body).toContain("$1,111");
    expect((await getCached("/")).body).toContain("$1,111");

    app.db().prepare("UPDATE domains SET asking_price_cents = ? WHERE id = ?").run(222_200, id);

    const page = await getWithin(`/domain/${shortName(name)}`, (reply) => reply.body.includes("$2,222"));
    expect(page.body).toContain("$2,222");
    expect(page.body).not.toContain("$1,111");
    // Each page within the bound: one rendered afresh for another reason may show it before the others.
    const browse = await getWithin("/", (reply) => reply.body.includes("$2,222"));
    expect(browse.body).toContain("$2,222");
  });

  it("shows an added domain within a second, even where a not-found page was cached, and a deleted one is gone as soon", async () => {
    const name = uniqueDomainName("added");
    const missing = await get(`/domain/${shortName(name)}`);
    expect(missing.status).toBe(404);
    expect((await get(`/domain/${shortName(name)}`)).headers.get("x-cache")).toBe("HIT");

    const id = insertDomain(app.db(), { name, priceCents: 98_700 });
    const found = await getWithin(`/domain/${shortName(name)}`, (reply) => reply.status === 200);
    expect(found.status).toBe(200);
    expect(found.body).toContain(name);

    await getCached(`/domain/${shortName(name)}`);
    app.db().prepare("UPDATE domains SET deleted_at = ? WHERE id = ?").run(new Date().toISOString(), id);
    expect((await getWithin(`/domain/${shortName(name)}`, (reply) => reply.status === 404)).status).toBe(404);
  });

  it("keeps the query string apart: each search has its own page", async () => {
    const first = await getCached("/?q=velora");
    expect(first.body).toContain("/domain/velora");
    const second = await get("/?q=quantix");
    expect(second.body).toContain("/domain/quantix");
    expect(second.body).not.toContain('href="/domain/velora"');
  });

  it("keeps each Host apart", async () => {
    await rawGet("/contact/velora", { Host: "one.example" });
    expect((await rawGet("/contact/velora", { Host: "one.example" })).headers["x-cache"]).toBe("HIT");
    expect((await rawGet("/contact/velora", { Host: "two.example" })).headers["x-cache"]).toBe("MISS");
  });
});

describe("page cache: work a page does besides rendering", () => {
  it("counts a view for every visit to a domain page, whether rendered, cached or revalidated", async () => {
    const name = uniqueDomainName("views");
    const id = insertDomain(app.db(), { name, priceCents: 12_300 });
    await untilHeard(app);
    const browser = {
      "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36",
    };
    const first = await get(`/domain/${shortName(name)}`, browser);
    expect((await get(`/domain/${shortName(name)}`, browser)).headers.get("x-cache")).toBe("HIT");
    const revisit = await get(`/domain/${shortName(name)}`, {
      ...browser,
      "If-None-Match": first.headers.get("etag")!,
    });
    expect(revisit.status).toBe(304);

    const total = () =>
      (
        app.db().prepare("SELECT views FROM domain_view_totals WHERE domain_id = ?").get(id) as
          { views: number } | undefined
      )?.views ?? 0;
    await waitFor(() => total() >= 3, 10_000, "three views counted").catch(() => {});
    expect(total()).toBe(3);
  });
});

describe("page cache: crawlers", () => {
  it("keeps a crawler's page the second time it is asked for, and serves crawlers what people's visits stored", async () => {
    const crawler = { "User-Agent": BOT_USER_AGENT, "Accept-Encoding": "gzip" };
    const [swept, read] = ["swept", "read"].map((label) => uniqueDomainName(label));
    for (const name of [swept, read]) insertDomain(app.db(), { name, priceCents: 25_000 });
    await untilHeard(app);
    const path = (name: string) => `/domain/${shortName(name)}`;
    const first = await get(path(swept), crawler);
    expect(first.status).toBe(200);
    expect(first.body).toContain("$250");
    // Rendered for the crawler, not through the cache; kept when asked for again. A page sent once has no
    // ETag: its nonce makes the next render differ, so no If-None-Match could match it.
    expect(first.headers.get("x-cache")).toBeNull();
    expect(first.headers.get("etag")).toBeNull();
    const kept = await get(path(swept), crawler);
    expect(kept.headers.get("x-cache")).toBe("MISS");
    expect(kept.headers.get("etag")).toBeTruthy();
    expect((await get(path(swept), crawler)).headers.get("x-cache")).toBe("HIT");
    // A person's first visit is kept at once, and a crawler is served it.
    expect((await get(path(read))).headers.get("x-cache")).toBe("MISS");
    const stored = await get(path(read), crawler);
    expect(stored.headers.get("x-cache")).toBe("HIT");
    expect(stored.body).toContain("$250");
  });
});

describe("page cache: what is never served from memory", () => {
  it("answers requests that carry a cookie freshly, every time", async () => {
    await get("/contact/quantix");
    const withCookie = await get("/contact/quantix", { Cookie: "a=b" });
    expect(withCookie.status).toBe(200);
    expect(withCookie.headers.get("x-cache")).toBeNull();
  });

  it("does not cache the event stream, health check or other routes", async () => {
    for (const path of ["/healthz", "/definitely/not/a/page"]) {
      await get(path);
      expect((await get(path)).headers.get("x-cache")).toBeNull();
    }
  });
});

describe("repeat visitors and compression", () => {
  it("answers a repeat visit with 304 while the page is unchanged, and with the new page after a change", async () => {
    const name = uniqueDomainName("etag");
    const id = insertDomain(app.db(), { name, priceCents: 400_000 });
    await untilHeard(app);
    const first = await get(`/domain/${shortName(name)}`);
    const etag = first.headers.get("etag");
    expect(etag).toBeTruthy();
    expect(first.headers.get("cache-control")).toBe("no-cache");

    const repeat = await get(`/domain/${shortName(name)}`, { "If-None-Match": etag! });
    expect(repeat.status).toBe(304);
    expect(repeat.body).toBe("");
    // Served from memory, it still carries the security headers and a request id of its own.
    expect(repeat.headers.get("x-content-type-options")).toBe("nosniff");
    expect(repeat.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(repeat.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(repeat.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"));

    app.db().prepare("UPDATE domains SET asking_price_cents = ? WHERE id = ?").run(410_000, id);
    const changed = await getWithin(`/domain/${shortName(name)}`, (reply) => reply.status === 200, {
      "If-None-Match": etag!,
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toContain("$4,100");
    expect(changed.headers.get("etag")).not.toBe(etag);
  });

  it("sends cached pages compressed to clients that accept it, identical once decompressed", async () => {
    const plain = await getCached("/domain/velora");
    for (const encoding of ["br", "gzip"]) {
      const compressed = await get("/domain/velora", { "Accept-Encoding": encoding });
      expect(compressed.headers.get("content-encoding")).toBe(encoding);
      expect(compressed.headers.get("vary")).toMatch(/accept-encoding/i);
      expect(compressed.body).toBe(plain.body);
    }
    const identity = await rawGet("/domain/velora", { "Accept-Encoding": "identity" });
    expect(identity.headers["content-encoding"]).toBeUndefined();
    expect(identity.body).toBe(plain.body);
  });

  it("shows Under offer and then Sold on a cached domain page as soon as the deal moves", async () => {
    const name = uniqueDomainName("cachedsale");
    const id = insertDomain(app.db(), { name, priceCents: 300_000 });
    app.db().prepare("UPDATE domains SET buy_now_cents = ? WHERE id = ?").run(250_000, id);
    const path = `/domain/${shortName(name)}`;
    expect((await getCached(path)).body).toContain("Buy now for $2,500");

    // An offer accepted in another process: the name is under offer.
    app.db().prepare("UPDATE domains SET sale_state = 'under_offer' WHERE id = ?").run(id);
    const underOffer = await getWithin(path, (page) => page.body.includes("Under offer"));
    expect(underOffer.body).toContain("Under offer");
    expect(underOffer.body).not.toContain("Buy now for");
    expect((await getCached(path)).body).toContain("Under offer");

    // The deal is cancelled, then the name is bought now over HTTP: its cached page says it has been sold.
    app.db().prepare("UPDATE domains SET sale_state = NULL WHERE id = ?").run(id);
    expect((await getWithin(path, (page) => page.body.includes("Buy now for"))).body).toContain("Buy now for");
    const started = await postForm(app, `/buy/${shortName(name)}`, {
      name: "Cache Buyer",
      email: "cache@example.test",
    });
    const paid = await postForm(app, started.headers.get("location")!, {
      card_number: "4242424242424242",
      expiry: "12/40",
      cvc: "123",
    });
    expect((await request(app, paid.headers.get("location")!)).status).toBe(303);
    const sold = await getWithin(path, (page) => page.body.includes("has been sold"));
    expect(sold.body).toContain("has been sold");
    expect((await getCached(path)).body).toContain("has been sold");
  });
});
