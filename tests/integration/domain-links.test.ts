// Issue #12 item 1: only "label.com" is shortened in links; every other name links with its full name,
// and each link (home card, canonical URL, JSON-LD, sitemap, admin, lander inquiry link) reaches that name.
import { beforeAll, describe, expect, it } from "vitest";
import { adminCookie, insertPaidInquiry, TEST_ADMIN } from "../support/admin";
import { insertDomain } from "../support/data";
import { request } from "../support/http";
import { requestWithHost } from "../support/raw-http";
import { useAppServer } from "../support/vitest-server";
import { withoutSpans } from "./admin-helpers";

const app = useAppServer({
  env: { SEED_DEMO: "false", ADMIN_EMAIL: TEST_ADMIN.email, ADMIN_PASSWORD: TEST_ADMIN.password },
});

// Names whose old short form was wrong, with the link each must get; velora.com is the name
// "velora.com.com" used to be confused with, shop.us the one "shop.us.com" used to be.
const CASES: Array<{ name: string; path: string; priceCents: number }> = [
  { name: "shop.us.com", path: "/domain/shop.us.com", priceCents: 111_100 },
  { name: "velora.com.com", path: "/domain/velora.com.com", priceCents: 222_200 },
  { name: "velora.com", path: "/domain/velora", priceCents: 333_300 },
  { name: "com.com", path: "/domain/com", priceCents: 444_400 },
  { name: "www.com", path: "/domain/www", priceCents: 555_500 },
  { name: "www.www.com", path: "/domain/www.www.com", priceCents: 666_600 },
];
const ids = new Map<string, number>();

beforeAll(() => {
  for (const entry of CASES)
    ids.set(entry.name, insertDomain(app.db(), { name: entry.name, priceCents: entry.priceCents }));
});

function priceText(cents: number): string {
  return `$${(cents / 100).toLocaleString("en-US")}`;
}

describe("links to domains with more labels than label.com", () => {
  it("home cards link to a page that shows that domain and its own price", async () => {
    const home = await request(app, "/");
    for (const entry of CASES) {
      expect(home.body, entry.name).toContain(`href="${entry.path}"`);
      const page = await request(app, entry.path);
      expect(page.status, entry.path).toBe(200);
      expect(withoutSpans(page.body)).toMatch(
        new RegExp(`<h1[^>]*>${entry.name.replace(/\./g, "\\.")} is for sale</h1>`),
      );
      expect(page.body, entry.path).toContain(priceText(entry.priceCents));
    }
  });

  it("the canonical URL, the JSON-LD and the inquiry link use the same path", async () => {
    for (const entry of CASES) {
      const page = await request(app, entry.path);
      const origin = new URL(app.url).origin;
      expect(page.body).toContain(`<link rel="canonical" href="${origin}${entry.path}"/>`);
      const jsonLd = JSON.parse(/<script type="application\/ld\+json"[^>]*>(.*?)<\/script>/s.exec(page.body)![1]!);
      expect(jsonLd.url).toBe(`${origin}${entry.path}`);
      expect(jsonLd.name).toBe(entry.name);
      const paymentPath = entry.path.replace("/domain/", "/payment/");
      expect(page.body).toContain(`href="${paymentPath}"`);
      const payment = await request(app, paymentPath);
      expect(payment.status, paymentPath).toBe(200);
      expect(payment.body).toContain(entry.name);
    }
  });

  it("the sitemap lists each domain once, at its own path", async () => {
    const sitemap = await request(app, "/sitemap.xml");
    const locs = [...sitemap.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]!).pathname);
    expect(new Set(locs).size).toBe(locs.length);
    for (const entry of CASES) expect(locs).toContain(entry.path);
  });

  it("a lander's inquiry link and canonical URL name the lander's own domain", async () => {
    const lander = await requestWithHost(app.url, "/", "velora.com.com");
    expect(lander.status).toBe(200);
    expect(lander.body).toContain(priceText(222_200));
    expect(lander.body).toContain('href="/payment/velora.com.com"');
    expect(lander.body).toMatch(/<link rel="canonical" href="[^"]+\/domain\/velora\.com\.com"\/>/);
  });

  it("the admin table, the domain page and the inbox link with the full name", async () => {
    const cookie = await adminCookie(app.url);
    insertPaidInquiry(app.db(), { domainId: ids.get("shop.us.com")!, domainName: "shop.us.com" });
    const panel = await request(app, "/admin", { headers: { Cookie: cookie } });
    expect(panel.body).toContain('href="/domain/shop.us.com"');
    expect(panel.body).toContain('href="/domain/velora.com.com"');
    const detail = await request(app, `/admin/domains/${ids.get("shop.us.com")}`, { headers: { Cookie: cookie } });
    expect(detail.body).toContain('href="/domain/shop.us.com"');
    const inbox = await request(app, "/admin/inquiries", { headers: { Cookie: cookie } });
    expect(inbox.body).toContain('href="/domain/shop.us.com"');
  });
});

describe("internationalized names (issue #12 item 10)", () => {
  it("stores the ASCII form, shows the Unicode form (the admin sees both) and finds either in a search", async () => {
    const cookie = await adminCookie(app.url);
    const added = await request(app, "/admin", {
      method: "POST",
      headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded", Origin: new URL(app.url).origin },
      body: new URLSearchParams({
        intent: "add",
        domainName: "München.de",
        askingPrice: "9000",
        trackingId: "idn",
        ownerEmail: "",
      }).toString(),
    });
    expect(added.status).toBe(303);
    expect(app.db().prepare("SELECT domain_name FROM domains WHERE tracking_id = 'idn'").pluck().get()).toBe(
      "xn--mnchen-3ya.de",
    );

    for (const q of ["münchen", "xn--mnchen"]) {
      const home = await request(app, `/?q=${encodeURIComponent(q)}`);
      // The card shows the Unicode form (the search box holds only what was typed).
      expect(withoutSpans(home.body), q).toContain("münchen.de");
      expect(home.body).toContain('href="/domain/xn--mnchen-3ya.de"');
    }
    const page = await request(app, "/domain/xn--mnchen-3ya.de");
    expect(withoutSpans(page.body)).toContain(">münchen.de is for sale</h1>");
    expect(page.body).toContain("<title>münchen.de is for sale");
    expect((await request(app, `/domain/${encodeURIComponent("münchen.de")}`)).status).toBe(200);

    const panel = await request(app, `/admin?q=${encodeURIComponent("münchen")}`, { headers: { Cookie: cookie } });
    expect(withoutSpans(panel.body)).toContain("münchen.de");
    expect(panel.body).toContain("xn--mnchen-3ya.de</span>");
  });

  it("refuses an IP address as a domain name", async () => {
    const cookie = await adminCookie(app.url);
    const added = await request(app, "/admin", {
      method: "POST",
      headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded", Origin: new URL(app.url).origin },
      body: new URLSearchParams({
        intent: "add",
        domainName: "1.2.3.4",
        askingPrice: "9000",
        trackingId: "ip",
        ownerEmail: "",
        js: "1",
      }).toString(),
    });
    expect(added.status).toBe(400);
    expect(added.body).toContain("is not a valid domain name");
    expect(app.db().prepare("SELECT count(*) FROM domains WHERE domain_name = '1.2.3.4'").pluck().get()).toBe(0);
  });
});
