import http from "node:http";
import { describe, expect, it } from "vitest";
import { useAppServer } from "../support/vitest-server";

// The page cache keys only on what a page reads, and made-up searches and 404s cannot push real pages
// out. PAGE_CACHE_MAX_MB=1: searches and 404s get an eighth of it (128 KB).
const proxied = useAppServer({ env: { TRUST_PROXY: "true", PAGE_CACHE_MAX_MB: "1" } });
const direct = useAppServer({ env: { PAGE_CACHE_MAX_MB: "1" } });

function get(server: { url: string }, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; cache: string | undefined; body: string }>((resolve, reject) => {
    http
      .get(new URL(path, server.url), { headers, agent: false }, (response) => {
        let body = "";
        response.on("data", (chunk) => (body += chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode!, cache: response.headers["x-cache"] as string | undefined, body }),
        );
      })
      .on("error", reject);
  });
}

async function inBatches(count: number, run: (i: number) => Promise<unknown>) {
  for (let start = 0; start < count; start += 10)
    await Promise.all(Array.from({ length: Math.min(10, count - start) }, (_, i) => run(start + i)));
}

describe("page-cache key: only what the page reads", () => {
  it("parameters a page does not read share its entry, and reach it as the plain page", async () => {
    await get(direct, "/domain/velora");
    const tracked = await get(direct, "/domain/velora?utm_source=mail&ref=x");
    expect(tracked.cache).toBe("HIT");
    expect(tracked.body).not.toContain("utm_source");
    expect((await get(direct, "/?page=1&utm_campaign=y")).status).toBe(200);
    expect((await get(direct, "/?utm_campaign=z")).cache).toBe("HIT");
    // A search term that differs only in spaces is the same search.
    await get(direct, "/?q=velora");
    expect((await get(direct, "/?q=+velora+&fbclid=1")).cache).toBe("HIT");
  });

  it("forwarded headers are ignored unless TRUST_PROXY is on, and then only the scheme is read", async () => {
    await get(direct, "/contact/velora");
    expect(
      (await get(direct, "/contact/velora", { "X-Forwarded-Proto": "https", "X-Forwarded-Host": "evil.example" }))
        .cache,
    ).toBe("HIT");

    await get(proxied, "/contact/velora", { "X-Forwarded-Proto": "https" });
    expect(
      (await get(proxied, "/contact/velora", { "X-Forwarded-Proto": "https", "X-Forwarded-Host": "a.example" })).cache,
    ).toBe("HIT");
    expect((await get(proxied, "/contact/velora", { "X-Forwarded-Proto": "HTTPS, http" })).cache).toBe("HIT");
    expect((await get(proxied, "/contact/velora", { "X-Forwarded-Proto": "http" })).cache).toBe("MISS");
    // A scheme that is neither http nor https is ignored (the request counts as http): it is not a key
    // anyone can fill the cache with.
    const odd = await get(proxied, "/contact/velora", { "X-Forwarded-Proto": `x${Date.now()}` });
    expect(odd.cache).toBe("HIT");
  });
});

describe("made-up searches and 404s cannot evict real pages", () => {
  it("500 random searches (from 500 addresses) and 500 random 404s later, the real pages are still cached", async () => {
    const realPages = ["/domain/velora", "/domain/quantix", "/contact/velora", "/"];
    for (const path of realPages) await get(proxied, path);
    await inBatches(500, (i) =>
      get(proxied, `/?q=zz${i}x${Date.now()}`, { "X-Forwarded-For": `10.20.${Math.floor(i / 250)}.${i % 250}` }),
    );
    await inBatches(500, (i) => get(proxied, `/domain/no-such-${i}-${Date.now()}`));
    const after = await Promise.all(realPages.map((path) => get(proxied, path)));
    console.log(
      `page cache churn: after 500 random searches and 500 random 404s, real pages: ${after.map((page) => page.cache).join(", ")}`,
    );
    expect(after.map((page) => page.cache)).toEqual(realPages.map(() => "HIT"));
  });
});

describe("made-up Host headers cannot evict real pages either", () => {
  it("500 domain pages asked under 500 made-up Hosts later, the real pages are still cached", async () => {
    const realPages = ["/domain/velora", "/contact/quantix"];
    for (const path of realPages) await get(direct, path);
    await inBatches(500, (i) => get(direct, "/domain/velora", { Host: `made-up-${i}-${Date.now()}.example` }));
    const after = await Promise.all(realPages.map((path) => get(direct, path)));
    console.log(`page cache churn: after 500 made-up Hosts, real pages: ${after.map((page) => page.cache).join(", ")}`);
    expect(after.map((page) => page.cache)).toEqual(realPages.map(() => "HIT"));
  });
});

describe("searches are limited per address", () => {
  it("30 new searches a minute per address; the 31st is refused (429), a cached search still answers", async () => {
    const from = { "X-Forwarded-For": "10.30.0.1" };
    const stamp = Date.now();
    for (let i = 0; i < 30; i++) expect((await get(proxied, `/?q=limit${stamp}n${i}`, from)).status).toBe(200);
    const limited = await get(proxied, `/?q=limit${stamp}n30`, from);
    expect(limited.status).toBe(429);
    expect(limited.body).toContain("Too many searches from your address. Please wait a minute and try again.");
    expect((await get(proxied, `/?q=limit${stamp}n29`, from)).cache).toBe("HIT");
    expect((await get(proxied, `/?q=limit${stamp}n30`, { "X-Forwarded-For": "10.30.0.2" })).status).toBe(200);
  });
});
