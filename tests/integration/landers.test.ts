import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeDataDir, startAppServer, type AppServer } from "../support/app-server";
import { insertDomain, uniqueDomainName } from "../support/data";
import { requestWithHost } from "../support/raw-http";

// A site name that tries to close the JSON-LD script: it is part of the Product's seller.
const SITE_NAME = `Acme </script><script>alert("owned")</script> & Co`;
let app: AppServer;

beforeAll(async () => {
  app = await startAppServer({
    env: {
      PUBLIC_URL: "https://shop.example.test",
      PAYMENTS: "test",
      EXTRA_HOSTS: "alt.example.test, www.third.example.test:8443",
      SITE_NAME,
    },
  });
});
afterAll(async () => {
  await app.stop();
  removeDataDir(app);
});

// The heading's text: a domain name is written in pieces (one per label) so it breaks only at its dots.
const h1 = (body: string) => /<h1[^>]*>(.*?)<\/h1>/s.exec(body)?.[1]?.replace(/<[^>]+>/g, "");
const isSplash = (body: string) =>
  body.includes("Premium Domain Acquisitions") && body.includes('href="/domain/velora"');

function jsonLd(body: string): Record<string, any>[] {
  return [...body.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].map((match) =>
    JSON.parse(match[1]!),
  );
}

describe("host-based landers", () => {
  it("shows a listed domain's own page at / for its host, with or without www. and port", async () => {
    for (const host of ["velora.com", "www.velora.com", "VELORA.com:8080", "www.velora.com:443", "velora.com."]) {
      const page = await requestWithHost(app.url, "/", host);
      expect(page.status, host).toBe(200);
      expect(h1(page.body), host).toBe("velora.com is for sale");
      expect(page.body).toContain("Guiding Price");
      expect(page.body).toContain("$24,500");
      expect(page.body).toContain('href="/payment/velora"');
      expect(page.body).not.toContain("Premium Domain Acquisitions");
      // The way back is the operator's browse page, not "/" (which is this lander again).
      expect(page.body).toContain('href="https://shop.example.test/"');
      expect(page.body).not.toContain("Back to Domains");
    }
    const dotIo = await requestWithHost(app.url, "/", "lumora.io");
    expect(h1(dotIo.body)).toBe("lumora.io is for sale");
    expect(dotIo.body).toContain('href="/payment/lumora.io"');
  });

  it("keeps the splash and browse page for the operator's hosts and localhost", async () => {
    const url = new URL(app.url);
    for (const host of [
      "shop.example.test",
      "www.shop.example.test",
      "alt.example.test",
      "third.example.test:8443",
      "localhost",
      `localhost:${url.port}`,
      `127.0.0.1:${url.port}`,
      "[::1]:80",
    ]) {
      const page = await requestWithHost(app.url, "/", host);
      expect(page.status, host).toBe(200);
      expect(isSplash(page.body), host).toBe(true);
    }
  });

  it("shows the normal splash for an unknown host and a soft-deleted domain's host", async () => {
    const deleted = uniqueDomainName("gone");
    const id = insertDomain(app.db(), { name: deleted, priceCents: 5_000 });
    app.db().prepare("UPDATE domains SET deleted_at = ? WHERE id = ?").run(new Date().toISOString(), id);
    for (const host of ["unknown-host.example", deleted, "velora"]) {
      const page = await requestWithHost(app.url, "/", host);
      expect(page.status, host).toBe(200);
      expect(isSplash(page.body), host).toBe(true);
    }
  });

  it("treats malformed Host headers as unknown, never as an error", async () => {
    const malformed = [
      "[::1",
      "a..b",
      `${"a".repeat(300)}.com`,
      "evil.com@x",
      "velora.com@evil.test",
      "velora.com:99999",
      "velora.com:x",
      "",
      "a b",
      "%zz",
      "x:1:2",
    ];
    for (const host of malformed) {
      const page = await requestWithHost(app.url, "/", host);
      expect(page.status, JSON.stringify(host)).toBe(200);
      expect(isSplash(page.body), JSON.stringify(host)).toBe(true);
    }
    // Still a normal 404 elsewhere, and the server is still fine.
    expect((await requestWithHost(app.url, "/domain/velora", "[::1")).status).toBe(200);
    expect((await requestWithHost(app.url, "/healthz", "velora.com")).status).toBe(200);
  });

  it("serves the ordinary routes on a lander host too", async () => {
    const page = await requestWithHost(app.url, "/domain/quantix", "velora.com");
    expect(h1(page.body)).toBe("quantix.com is for sale");
  });
});

describe("search-engine tags", () => {
  it("gives a domain page its title, description, canonical URL, Open Graph tags and Product JSON-LD", async () => {
    const name = uniqueDomainName("seo");
    insertDomain(app.db(), { name, priceCents: 1_234_550 });
    const short = name.replace(/\.com$/, "");
    for (const page of [
      await requestWithHost(app.url, `/domain/${short}`, "localhost"),
      await requestWithHost(app.url, "/", `www.${name}`),
    ]) {
      expect(page.status).toBe(200);
      const canonical = `https://shop.example.test/domain/${short}`;
      expect(page.body).toMatch(new RegExp(`<title>${name} is for sale \\| Acme &lt;/script&gt;`));
      expect(page.body).toContain(
        `<meta name="description" content="${name} is for sale. Guiding price $12,345.50. Contact the owner directly."/>`,
      );
      expect(page.body).toContain(`<link rel="canonical" href="${canonical}"/>`);
      expect(page.body).toContain(`<meta property="og:url" content="${canonical}"/>`);
      expect(page.body).toContain(`<meta property="og:title" content="${name} is for sale | Acme &lt;/script&gt;`);
      expect(page.body).toContain('<meta property="og:type" content="product"/>');
      const [product, ...others] = jsonLd(page.body);
      expect(others).toEqual([]);
      expect(product).toMatchObject({
        "@context": "https://schema.org",
        "@type": "Product",
        name,
        url: canonical,
        offers: {
          "@type": "Offer",
          price: "12345.50",
          priceCurrency: "USD",
          url: canonical,
          seller: { "@type": "Organization", name: SITE_NAME },
        },
      });
      // The site name's "</script>" stayed inside the JSON: no script of its own was created.
      expect(page.body).not.toContain('<script>alert("owned")');
      expect(page.body.match(/<\/script>/g)!.length).toBe(page.body.match(/<script/g)!.length);
    }
  });

  it("a stored name containing </script> breaks neither the browse page nor its own URL", async () => {
    const hostile = `x</script><script>alert(1)</script>${Date.now()}.com`;
    insertDomain(app.db(), { name: hostile, priceCents: 100 });
    const home = await requestWithHost(app.url, "/?q=alert", "localhost");
    expect(home.status).toBe(200);
    expect(home.body).not.toContain("<script>alert(1)");
    expect(home.body).toContain("x&lt;/script&gt;&lt;script&gt;alert(1)");
    const page = await requestWithHost(app.url, `/domain/${encodeURIComponent(hostile)}`, "localhost");
    expect(page.status).toBe(404);
    expect(page.body).not.toContain("<script>alert(1)");
  });

  it("gives the home page a canonical URL, and search results noindex with the home page as theirs", async () => {
    const home = await requestWithHost(app.url, "/", "localhost");
    expect(home.body).toContain('<link rel="canonical" href="https://shop.example.test/"/>');
    expect(home.body).toContain('<meta property="og:type" content="website"/>');
    expect(jsonLd(home.body)).toEqual([]);
    const search = await requestWithHost(app.url, "/?q=velora", "localhost");
    expect(search.body).toContain('<meta name="robots" content="noindex, follow"/>');
    // Issue 24 item 6: a filtered list's canonical URL is the home page.
    expect(search.body).toContain('<link rel="canonical" href="https://shop.example.test/"/>');
  });

  it("marks the not-found view noindex", async () => {
    const missing = await requestWithHost(app.url, "/domain/not-listed-anywhere", "localhost");
    expect(missing.status).toBe(404);
    expect(missing.body).toContain('<meta name="robots" content="noindex"/>');
  });
});
