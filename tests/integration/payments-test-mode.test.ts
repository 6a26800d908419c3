import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { removeDataDir, startAppServer, type AppServer } from "../support/app-server";
import { insertDomain, uniqueDomainName } from "../support/data";
import { startFakeStripe } from "../support/fake-stripe";
import { BUYER, postForm, request, waitFor } from "../support/http";
import { visibleText as visible } from "../support/visible-text";

// Test payments say so everywhere, and a site that has since been given Stripe keys completes none: on both
// engines, as the inquiry, its payment and the owner's and buyer's mails (the outbox) are stored in the
// database. What else an operator meets at start: deploy-settings.test.ts.

vi.setConfig({ testTimeout: 120_000 });

const TEST_SITE_BANNER = "Test site: payments here use test cards only, and no money moves.";

describe("payments are never fake by accident", () => {
  let server: AppServer | undefined;
  afterAll(async () => {
    await server?.stop();
    if (server) removeDataDir(server);
  });

  it("in test mode, every page and the owner's and buyer's mails say it is a test", async () => {
    server = await startAppServer({ env: { SEED_DEMO: "false" } });
    const name = uniqueDomainName("testmode");
    insertDomain(server.db(), { name, priceCents: 300_000, ownerEmail: "owner@example.test" });
    const short = name.replace(/\.com$/, "");
    for (const page of ["/", `/domain/${short}`, `/payment/${short}`, `/contact/${short}`, "/admin", "/no-such-page"]) {
      expect(visible((await request(server, page)).body), page).toContain(TEST_SITE_BANNER);
    }
    const started = await postForm(server, `/payment/${short}`, { intent: "inquiry", ...BUYER });
    expect(started.status).toBe(303);
    const checkout = new URL(started.headers.get("location")!, server.url);
    expect(visible((await request(server, checkout.pathname)).body)).toContain("Test mode - no real charge");
    const paid = await postForm(server, checkout.pathname, {
      card_number: "4242424242424242",
      expiry: "12/40",
      cvc: "123",
    });
    expect(paid.status).toBe(303);
    await request(
      server,
      new URL(paid.headers.get("location")!, server.url).pathname + new URL(paid.headers.get("location")!).search,
    );
    const mailDir = path.join(server.dataDir, "mail");
    const mails = await waitFor(
      () => {
        const files = readdirSync(mailDir, { withFileTypes: true }).filter((entry) => entry.name.endsWith(".eml"));
        // Header lines unfolded (a long Subject is folded onto the next line).
        return files.length >= 2
          ? files.map((entry) => readFileSync(path.join(mailDir, entry.name), "utf8").replace(/\r?\n[ \t]+/g, " "))
          : null;
      },
      10_000,
      "owner and buyer emails",
    );
    for (const mail of mails) {
      expect(mail).toMatch(/^Subject: .*\[test mode - no real charge\]/m);
      expect(mail).toContain("TEST MODE: a test payment, no money was charged or moved.");
    }
  });

  it("with Stripe configured, test checkouts made earlier answer 404 and complete nothing; pages carry no test banner", async () => {
    const fake = await startFakeStripe();
    try {
      const name = uniqueDomainName("switch");
      insertDomain(server!.db(), { name, priceCents: 300_000, ownerEmail: "owner@example.test" });
      const started = await postForm(server!, `/payment/${name.replace(/\.com$/, "")}`, {
        intent: "inquiry",
        ...BUYER,
      });
      const checkoutPath = new URL(started.headers.get("location")!, server!.url).pathname;
      // The buyer pays with the test card and closes the tab before the return: the test payment
      // succeeded, the inquiry is not recorded yet.
      const paid = await postForm(server!, checkoutPath, {
        card_number: "4242424242424242",
        expiry: "12/40",
        cvc: "123",
      });
      expect(paid.status).toBe(303);
      const successUrl = new URL(paid.headers.get("location")!, server!.url);
      await server!.stop();
      server = await startAppServer({
        dataDir: server!.dataDir,
        env: {
          SEED_DEMO: "false",
          STRIPE_SECRET_KEY: "sk_test_fake",
          STRIPE_PUBLISHABLE_KEY: "pk_test_fake",
          STRIPE_API_BASE: fake.url,
        },
      });
      expect(server.output()).toContain("STRIPE_WEBHOOK_SECRET is not set");
      expect((await request(server, checkoutPath)).status).toBe(404);
      expect(
        (await postForm(server, checkoutPath, { card_number: "4242424242424242", expiry: "12/40", cvc: "123" })).status,
      ).toBe(404);
      const confirm = await request(server, "/api/test-payments/confirm", {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: server.origin },
        body: "{}",
      });
      expect(confirm.status).toBe(404);
      // Coming back later, after Stripe was configured, records nothing: no money ever moved.
      const back = await request(server, successUrl.pathname + successUrl.search);
      expect(visible(back.body)).not.toContain("Payment Successful!");
      const row = server.db().prepare("SELECT status FROM inquiries WHERE domain_name = ?").get(name) as {
        status: string;
      };
      expect(row.status).toBe("pending");
      expect(visible((await request(server, "/")).body)).not.toContain(TEST_SITE_BANNER);
    } finally {
      await fake.stop();
    }
  });
});
