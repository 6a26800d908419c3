import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_ADMIN } from "../support/admin";
import { removeDataDir, startAppServer, type AppServer } from "../support/app-server";
import { insertDomain, uniqueDomainName } from "../support/data";
import { chromiumLaunchOptions } from "../support/chromium";
import { startDnsStub, type DnsStub } from "../support/dns";
import { BUYER, setFeeCents } from "../support/http";
import {
  cookieFrom,
  httpsRequest,
  proxyPorts,
  startProxy,
  type ProxyKind,
  type RunningProxy,
} from "../support/proxies";

// The production server behind Debian's caddy and nginx, started from deploy/Caddyfile and
// deploy/nginx.conf, driven over https as operators deploy it (README "Deploy"). The app trusts the
// proxy's address only (TRUST_PROXY=127.0.0.1; a real deployment says loopback): the test's own
// requests come from 127.0.0.5, as a client elsewhere on the internet would, so a forged
// X-Forwarded-For is visible for what it is.

let browser: Browser;
beforeAll(async () => {
  browser = await chromium.launch(chromiumLaunchOptions);
});
afterAll(async () => browser?.close());

const visible = (html: string) =>
  html
    .replace(/<script[\s\S]*?<\/script>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, " ");

describe.each<ProxyKind>(["caddy", "nginx"])("behind %s over https", { timeout: 120_000 }, (kind) => {
  let app: AppServer;
  let proxy: RunningProxy;
  let dns: DnsStub;
  const domain = uniqueDomainName(`${kind}-site`);
  const lander = uniqueDomainName(`${kind}-lander`);
  /** Listed, but its DNS points at another server: /tls-check refuses it a certificate. */
  const pointedElsewhere = uniqueDomainName(`${kind}-elsewhere`);
  const short = domain.replace(/\.com$/, "");

  beforeAll(async () => {
    const ports = await proxyPorts();
    // The listed names' DNS, as /tls-check sees it: the lander points here (the site, localhost, is 127.0.0.1).
    dns = await startDnsStub();
    dns.set(lander, ["127.0.0.1"]);
    dns.set(pointedElsewhere, ["198.51.100.7"]);
    app = await startAppServer({
      env: {
        PUBLIC_URL: `https://localhost:${ports.httpsPort}`,
        DNS_SERVERS: dns.server,
        TRUST_PROXY: "127.0.0.1",
        ADMIN_EMAIL: TEST_ADMIN.email,
        ADMIN_PASSWORD: TEST_ADMIN.password,
        SEED_DEMO: "false",
      },
    });
    insertDomain(app.db(), { name: domain, priceCents: 1_250_000, ownerEmail: "owner@example.test" });
    insertDomain(app.db(), { name: lander, priceCents: 480_000, ownerEmail: "owner@example.test" });
    insertDomain(app.db(), { name: pointedElsewhere, priceCents: 480_000, ownerEmail: "owner@example.test" });
    setFeeCents(app.db(), 1999);
    proxy = await startProxy(kind, ports, Number(new URL(app.url).port), [lander]);
  }, 90_000);
  afterAll(async () => {
    await proxy?.stop();
    await app?.stop();
    if (app) removeDataDir(app);
    await dns?.stop();
  });

  const signIn = async () => {
    const reply = await httpsRequest(proxy, "/admin", { form: { intent: "login", ...TEST_ADMIN } });
    expect(reply.status, proxy.output()).toBe(303);
    return reply;
  };

  it("takes a no-JavaScript admin sign-in and fee change (Secure cookie, HSTS)", async () => {
    const login = await signIn();
    expect(String(login.headers["set-cookie"])).toMatch(/; Secure/i);
    expect(login.headers["strict-transport-security"]).toMatch(/max-age=/);
    const cookie = cookieFrom(login);
    try {
      const change = await httpsRequest(proxy, "/admin", {
        form: { intent: "fee", fee: "21.50" },
        headers: { Cookie: cookie },
      });
      expect(change.status).toBe(303);
      const next = new URL(String(change.headers.location), proxy.origin);
      const panel = await httpsRequest(proxy, next.pathname + next.search, { headers: { Cookie: cookie } });
      expect(visible(panel.body)).toContain("Inquiry fee updated successfully!");
      expect(visible(panel.body)).toContain("$21.50");
      // The same form from another site is still refused: the origin check works behind the proxy.
      const forged = await httpsRequest(proxy, "/admin", {
        form: { intent: "fee", fee: "1" },
        headers: { Cookie: cookie, Origin: "https://evil.example" },
      });
      expect(forged.status).toBeGreaterThanOrEqual(400);
      expect(app.db().prepare("SELECT value FROM settings WHERE key = 'inquiry_fee'").pluck().get()).toBe("21.50");
    } finally {
      setFeeCents(app.db(), 1999);
    }
  });

  it("takes a no-JavaScript paid inquiry with the test provider, returning to the https site", async () => {
    const started = await httpsRequest(proxy, `/payment/${short}`, { form: { intent: "inquiry", ...BUYER } });
    expect(started.status, visible(started.body)).toBe(303);
    const checkout = new URL(String(started.headers.location), proxy.origin);
    const paid = await httpsRequest(proxy, checkout.pathname, {
      form: { card_number: "4242424242424242", expiry: "12/40", cvc: "123" },
    });
    expect(paid.status).toBe(303);
    const back = new URL(String(paid.headers.location));
    expect(back.origin).toBe(proxy.origin);
    const success = await httpsRequest(proxy, back.pathname + back.search);
    expect(visible(success.body)).toContain("Payment Successful!");
    const row = app
      .db()
      .prepare("SELECT status FROM inquiries WHERE public_id = ?")
      .get(back.searchParams.get("inquiry")) as { status: string };
    expect(row.status).toBe("paid");
  });

  it("answers a listed domain's own host with its lander", async () => {
    const page = await httpsRequest(proxy, "/", { host: lander });
    expect(page.status).toBe(200);
    expect(visible(page.body)).toContain(lander);
    expect(visible(page.body)).toContain("Guiding Price");
    if (kind === "caddy") {
      // On-demand TLS asks the app first: no certificate (no handshake) for a name it does not list.
      await expect(httpsRequest(proxy, "/", { host: uniqueDomainName("unlisted") })).rejects.toThrow();
      // Nor for a listed one whose DNS points at another server: its order could not validate.
      await expect(httpsRequest(proxy, "/", { host: pointedElsewhere })).rejects.toThrow();
    }
  });

  it("takes a paid inquiry with JavaScript in Chromium over HTTP/2, and the live fee reaches the open page within 1 s", async () => {
    const context = await browser.newContext({ ignoreHTTPSErrors: true, baseURL: proxy.origin });
    try {
      const page = await context.newPage();
      const stream = page.waitForResponse((response) => response.url().endsWith("/events/fee"));
      await page.goto(`/domain/${short}`);
      expect(
        await page.evaluate(
          () => (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming).nextHopProtocol,
        ),
      ).toBe("h2");
      await page.getByRole("link", { name: "Start Inquiry ($19.99)" }).waitFor();
      expect((await stream).status()).toBe(200);

      const cookie = cookieFrom(await signIn());
      const change = await httpsRequest(proxy, "/admin", {
        form: { intent: "fee", fee: "23.45" },
        headers: { Cookie: cookie },
      });
      expect(change.status).toBe(303);
      await page.getByRole("link", { name: "Start Inquiry ($23.45)" }).waitFor({ timeout: 1_000 });

      await page.getByRole("link", { name: "Start Inquiry ($23.45)" }).click();
      await page.getByLabel("Full Name").fill(BUYER.name);
      await page.getByLabel("Email Address").fill(BUYER.email);
      await page.getByLabel("Message to Owner").fill(BUYER.message);
      await page.getByRole("button", { name: "Continue to Payment" }).click();
      await page.getByRole("heading", { level: 1, name: "Complete Payment" }).waitFor();
      await page.getByLabel("Card number").fill("4242 4242 4242 4242");
      await page.getByLabel("Expiry").fill("12/40");
      await page.getByLabel("CVC").fill("123");
      await page.getByRole("button", { name: "Pay $23.45" }).click();
      await page.getByRole("heading", { name: "Payment Successful!" }).waitFor();
      const paid = app
        .db()
        .prepare(
          "SELECT count(*) AS n FROM inquiries WHERE domain_name = ? AND status = 'paid' AND amount_cents = 2345",
        )
        .get(domain) as { n: number };
      expect(paid.n).toBe(1);
    } finally {
      await context.close();
      setFeeCents(app.db(), 1999);
    }
  });

  it("limits wrong sign-ins per client address whatever X-Forwarded-For the client sends", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) {
      const reply = await httpsRequest(proxy, "/admin", {
        form: { intent: "login", email: `nobody${i}@example.test`, password: "wrong-password" },
        headers: { "X-Forwarded-For": `203.0.113.${i + 1}` },
      });
      statuses.push(reply.status);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual(Array(15).fill(429));
  });
});
