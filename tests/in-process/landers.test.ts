import { vi } from "vitest";

vi.hoisted(() => {
  Object.assign(process.env, {
    PUBLIC_URL: "https://shop.example.test",
    EXTRA_HOSTS: "alt.example.test, www.third.example.test:8443",
    SITE_NAME: `Acme </script><script>alert("owned")</script> & Co`,
  });
});

import { describe, expect, it } from "vitest";
import { softDeleteDomain } from "../../app/server/admin/admin-domains.server";
import { insertDomain } from "../../app/server/catalog/domains.server";
import { createDomain } from "../support/factories";
import { render } from "../support/in-process/document";

// Landers are found by the request's Host header, which render() passes on as the server does (a malformed
// Host, which the server turns into none, is tested against the server: tests/integration/landers.test.ts).
// A site name that tries to close the JSON-LD script: it is part of the Product's seller.
const SITE_NAME = process.env.SITE_NAME!;

/** A GET to `path` as the server passes it on for a request with this Host. */
const requestWithHost = (path: string, host: string) => render(`http://${host}${path}`, { headers: { Host: host } });

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
      const page = await requestWithHost("/", host);
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
    const dotIo = await requestWithHost("/", "lumora.io");
    expect(h1(dotIo.body)).toBe("lumora.io is for sale");
    expect(dotIo.body).toContain('href="/payment/lumora.io"');
  });

  it("keeps the splash and browse page for the operator's hosts and localhost", async () => {
    for (const host of [
      "shop.example.test",
      "www.shop.example.test",
      "alt.example.test",
      "third.example.test:8443",
      "localhost",
      "localhost:3000",
      "127.0.0.1:43210",
      "[::1]:80",
    ]) {
      const page = await requestWithHost("/", host);
      expect(page.status, host).toBe(200);
      expect(isSplash(page.body), host).toBe(true);
    }
  });

  it("shows the normal splash for an unknown host and a soft-deleted domain's host", async () => {
    const gone = await createDomain({ prefix: "gone", priceCents: 5_000 });
    await softDeleteDomain(gone.id);
    const deleted = gone.domain_name;
    for (const host of ["unknown-host.example", deleted, "velora"]) {
      const page = await requestWithHost("/", host);
      expect(page.status, host).toBe(200);
      expect(isSplash(page.body), host).toBe(true);
    }
  });

  it("serves the ordinary routes on a lander host too", async () => {
    const page = await requestWithHost("/domain/quantix", "velora.com");
    expect(h1(page.body)).toBe("quantix.com is for sale");
  });
});

describe("search-engine tags", () => {
  it("gives a domain page its title, description, canonical URL, Open Graph tags and Product JSON-LD", async () => {
    const { domain_name: name, short } = await createDomain({ prefix: "seo", priceCents: 1_234_550 });
    for (const page of [
      await requestWithHost(`/domain/${short}`, "localhost"),
      await requestWithHost("/", `www.${name}`),
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
    // Stored as an old import kept it, before the form's rules: as it is, unchecked.
    await insertDomain({
      domainName: hostile,
      askingPriceCents: 100,
      trackingId: "tracker",
      ownerEmail: "owner@example.test",
    });
    const home = await requestWithHost("/?q=alert", "localhost");
    expect(home.status).toBe(200);
    expect(home.body).not.toContain("<script>alert(1)");
    expect(home.body).toContain("x&lt;/script&gt;&lt;script&gt;alert(1)");
    const page = await requestWithHost(`/domain/${encodeURIComponent(hostile)}`, "localhost");
    expect(page.status).toBe(404);
    expect(page.body).not.toContain("<script>alert(1)");
  });

  it("gives the home page a canonical URL, and search results noindex with the home page as theirs", async () => {
    const home = await requestWithHost("/", "localhost");
    expect(home.body).toContain('<link rel="canonical" href="https://shop.example.test/"/>');
    expect(home.body).toContain('<meta property="og:type" content="website"/>');
    expect(jsonLd(home.body)).toEqual([]);
    const search = await requestWithHost("/?q=velora", "localhost");
    expect(search.body).toContain('<meta name="robots" content="noindex, follow"/>');
    // Issue 24 item 6: a filtered list's canonical URL is the home page.
    expect(search.body).toContain('<link rel="canonical" href="https://shop.example.test/"/>');
  });

  it("marks the not-found view noindex", async () => {
    const missing = await requestWithHost("/domain/not-listed-anywhere", "localhost");
    expect(missing.status).toBe(404);
    expect(missing.body).toContain('<meta name="robots" content="noindex"/>');
  });
});
