import http from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { useAppServer } from "../support/vitest-server";
import { insertDomain, uniqueDomainName } from "../support/data";
import { untilHeard } from "../support/http";

// Every page is rendered by React Router (through express, app/server/http/express.server.ts). With the
// page cache off every request is a first render: these tests prove such a page is complete (headers,
// compression, HEAD) and never stale.

const app = useAppServer({ env: { PAGE_CACHE: "false" } });

async function raw(path: string, options: { method?: string; headers?: Record<string, string> } = {}) {
  await app.settle();
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const request = http.request(
      new URL(path, app.url),
      { method: options.method ?? "GET", headers: options.headers },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    request.on("error", reject);
    request.end();
  });
}

const short = (name: string) => name.replace(/\.com$/, "");
/** Statements the server has sent since it started (its health check says). */
const statements = async () =>
  (JSON.parse((await raw("/healthz")).body.toString()) as { statements: number }).statements;
const withoutNonces = (html: string) => html.replace(/nonce="[^"]*"/g, 'nonce=""').replace(/'nonce-[^']*'/g, "");

describe("a domain page's first render", () => {
  it("carries the security headers, a request id and a CSP nonce that matches its scripts", async () => {
    const name = uniqueDomainName("first");
    insertDomain(app.db(), { name, priceCents: 1_234_500 });
    const page = await raw(`/domain/${short(name)}`);
    expect(page.status).toBe(200);
    const html = page.body.toString("utf8");
    expect(html).toContain(name);
    expect(html).toContain("$12,345");
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(page.headers.vary).toMatch(/accept-encoding/i);
    expect(page.headers["x-content-type-options"]).toBe("nosniff");
    expect(page.headers["x-frame-options"]).toBe("DENY");
    expect(page.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(page.headers["x-cache"]).toBeUndefined();
    const nonce = /'nonce-([^']+)'/.exec(String(page.headers["content-security-policy"]))?.[1];
    expect(nonce).toBeTruthy();
    const scriptNonces = [...html.matchAll(/<script nonce="([^"]*)"/g)].map((match) => match[1]);
    expect(scriptNonces.length).toBeGreaterThan(0);
    expect(new Set(scriptNonces)).toEqual(new Set([nonce]));
  });

  it("is the same page for the short name and the full one with an escaped dot, byte for byte but the nonce", async () => {
    const name = uniqueDomainName("same");
    insertDomain(app.db(), { name, priceCents: 4_200_000 });
    // A crawler's user agent makes the streaming render wait for all its content: one deterministic document.
    const headers = { "User-Agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" };
    const byShortName = await raw(`/domain/${short(name)}`, { headers });
    const byFullName = await raw(`/domain/${short(name)}%2Ecom`, { headers });
    expect(byFullName.status).toBe(200);
    expect(withoutNonces(byShortName.body.toString("utf8"))).toBe(withoutNonces(byFullName.body.toString("utf8")));
    for (const path of ["/", "/contact/velora"]) expect((await raw(path)).status).toBe(200);
  });

  it("is compressed for a client that takes it and is then the same page; identity and q=0 get it plain", async () => {
    const path = `/domain/${short(uniqueDomainName("gzip"))}`;
    insertDomain(app.db(), { name: `${path.slice("/domain/".length)}.com`, priceCents: 50_000 });
    const plain = await raw(path);
    const gzipped = await raw(path, { headers: { "Accept-Encoding": "gzip, deflate, br" } });
    const encoding = gzipped.headers["content-encoding"];
    expect(["gzip", "br"]).toContain(encoding);
    expect(gzipped.body.length).toBeLessThan(plain.body.length / 2);
    const decoded = encoding === "br" ? brotliDecompressSync(gzipped.body) : gunzipSync(gzipped.body);
    expect(withoutNonces(decoded.toString("utf8"))).toBe(withoutNonces(plain.body.toString("utf8")));
    for (const refusal of ["identity", "gzip;q=0", "gzip;q=0, br;q=0"]) {
      const other = await raw(path, { headers: { "Accept-Encoding": refusal } });
      expect(other.headers["content-encoding"]).toBeUndefined();
      expect(withoutNonces(other.body.toString("utf8"))).toBe(withoutNonces(plain.body.toString("utf8")));
    }
  });

  it("answers a client-side navigation's data request (/domain/{short}.data) with the loader's data", async () => {
    const name = uniqueDomainName("data");
    insertDomain(app.db(), { name, priceCents: 610_000 });
    const data = await raw(`/domain/${short(name)}.data`);
    expect(data.status).toBe(200);
    expect(data.headers["content-type"]).toBe("text/x-script");
    const text = data.body.toString("utf8");
    expect(text).toContain(`"${name}"`);
    expect(text).toContain("610000");
    expect(text).not.toContain("owner@example.test");
  });

  it("answers HEAD with the page's status and no body, and a missing domain with the 404 page", async () => {
    const name = uniqueDomainName("head");
    insertDomain(app.db(), { name, priceCents: 70_000 });
    const head = await raw(`/domain/${short(name)}`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers["x-content-type-options"]).toBe("nosniff");
    expect(head.body.length).toBe(0);
    const missing = await raw(`/domain/${short(uniqueDomainName("missing"))}`);
    expect(missing.status).toBe(404);
    expect(missing.body.toString("utf8")).toContain("The domain you&#x27;re looking for doesn&#x27;t exist.");
  });

  it("sends the database about one statement per repeat render: the domain (the rest is known per content version)", async () => {
    const name = uniqueDomainName("statements");
    insertDomain(app.db(), { name, priceCents: 310_000 });
    const path = `/domain/${name.replace(/\.com$/, "")}`;
    await untilHeard(app);
    for (let i = 0; i < 2; i++) expect((await raw(path)).status).toBe(200);
    const before = await statements();
    const renders = 50;
    for (let i = 0; i < renders; i++) expect((await raw(path)).status).toBe(200);
    const sent = (await statements()) - before;
    // The domain's row per render, plus the process's own periodic checks, the health check and a flush
    // of counted views; the fee, the promise's two settings, the categories and the footer's contact
    // address read per render would be six a render.
    expect(sent).toBeLessThan(renders * 1.5);
  });

  it("sends two statements for a name seen the first time once its category's newest are known", async () => {
    const db = app.db();
    const tag = short(uniqueDomainName("crawl"));
    db.prepare("INSERT INTO categories (slug, name, created_at) VALUES (?, ?, ?)").run(
      tag,
      tag,
      new Date().toISOString(),
    );
    const category = (db.prepare("SELECT id FROM categories WHERE slug = ?").get(tag) as { id: number }).id;
    const names = Array.from({ length: 11 }, (_, i) => `${tag}n${i}.com`);
    for (const [i, name] of names.entries()) {
      const id = insertDomain(db, { name, priceCents: 400_000 + i, ownerEmail: `${tag}@example.test` });
      db.prepare("INSERT INTO domain_categories (category_id, domain_id) VALUES (?, ?)").run(category, id);
    }
    await untilHeard(app);
    expect((await raw(`/domain/${short(names[0]!)}`)).status).toBe(200);
    const before = await statements();
    for (const name of names.slice(1)) expect((await raw(`/domain/${short(name)}`)).status).toBe(200);
    const sent = (await statements()) - before;
    // Per name: its row and its categories (for the page and its similar names, which its category's newest
    // names fill: read for the first name); eight before.
    expect(sent).toBeLessThan(10 * 3);
  });

  it("shows a changed price and fee on the very next render", async () => {
    const name = uniqueDomainName("fresh");
    const id = insertDomain(app.db(), { name, priceCents: 300_000 });
    expect((await raw(`/domain/${short(name)}`)).body.toString("utf8")).toContain("$3,000");
    app.db().prepare("UPDATE domains SET asking_price_cents = ? WHERE id = ?").run(310_000, id);
    app
      .db()
      .prepare(
        `INSERT INTO settings (key, value, created_at, updated_at) VALUES ('inquiry_fee', '27.31', ?, ?)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      )
      .run(new Date().toISOString(), new Date().toISOString());
    const html = (await raw(`/domain/${short(name)}`)).body.toString("utf8");
    expect(html).toContain("$3,100");
    expect(html).not.toContain("$3,000");
    expect(html).toMatch(/Start Inquiry \((?:<!-- -->)?\$27\.31/);
  });

  it("shows the owner's reply time as soon as a third inquiry is answered (the per-owner figure is not kept past a change)", async () => {
    const owner = `first-render-${Date.now()}@example.test`;
    const names = [uniqueDomainName("owner"), uniqueDomainName("owner")];
    const ids = names.map((name) => insertDomain(app.db(), { name, priceCents: 90_000, ownerEmail: owner }));
    const addAnswered = (domainId: number, name: string, hours: number, answered: boolean) => {
      const paidAt = new Date(Date.now() - 10 * 86_400_000);
      app
        .db()
        .prepare(
          `INSERT INTO inquiries (public_id, domain_id, domain_name, name, email, message, amount_cents, status, provider, created_at, paid_at, answered_at)
           VALUES (?, ?, ?, 'Buyer', 'buyer@example.test', 'Hello', 1999, 'paid', 'test', ?, ?, ?)`,
        )
        .run(
          `fr-${domainId}-${hours}-${Math.random()}`,
          domainId,
          name,
          paidAt.toISOString(),
          paidAt.toISOString(),
          answered ? new Date(paidAt.getTime() + hours * 3_600_000).toISOString() : null,
        );
    };
    const replyText = /Owner usually replies within (\d+) days?/;
    addAnswered(ids[0]!, names[0]!, 12, true);
    addAnswered(ids[1]!, names[1]!, 30, true);
    for (const name of names)
      expect((await raw(`/domain/${short(name)}`)).body.toString("utf8")).not.toMatch(replyText);
    addAnswered(ids[0]!, names[0]!, 100, true);
    // Written by another process (this test): the server hears of it within its bound.
    await untilHeard(app);
    for (const name of names)
      expect((await raw(`/domain/${short(name)}`)).body.toString("utf8")).toContain(
        "Owner usually replies within 2 days",
      );
  });
});
