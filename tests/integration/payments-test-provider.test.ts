import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeDataDir, startAppServer, type AppServer } from "../support/app-server";
import { insertDomain, uniqueDomainName } from "../support/data";
import { BUYER, postForm, postJson, request, setFeeCents, waitFor } from "../support/http";

// The embedded test provider over HTTP, as a browser without JavaScript (forms, 303s) and with it (JSON).
let app: AppServer;

beforeAll(async () => {
  app = await startAppServer({
    env: { MAIL_RETRY_BASE_MS: "50", ADMIN_EMAIL: "admin@example.test", ADMIN_PASSWORD: "secret-password" },
  });
});
afterAll(async () => {
  await app.stop();
  removeDataDir(app);
});

function newDomain(ownerEmail = "owner@example.test") {
  const name = uniqueDomainName("pay");
  const id = insertDomain(app.db(), { name, priceCents: 500_000, ownerEmail });
  return { id, name, short: name.replace(/\.com$/, "") };
}
const inquiryCount = (id: number) =>
  (app.db().prepare("SELECT inquiry_count AS n FROM domains WHERE id = ?").get(id) as { n: number }).n;
const inquiriesFor = (id: number) =>
  app.db().prepare("SELECT * FROM inquiries WHERE domain_id = ? ORDER BY id").all(id) as any[];
const feeCents = 1999;

describe("no-JavaScript payment flow with the test provider", () => {
  it("shows the form, refuses missing fields, and pays once with 4242", async () => {
    const domain = newDomain();
    const form = await request(app, `/payment/${domain.short}`);
    expect(form.status).toBe(200);
    for (const text of [
      "Domain Inquiry",
      "Full Name",
      "Email Address",
      "Phone",
      "Your Offer",
      "Message to Owner",
      "Test mode - no real charge",
    ]) {
      expect(form.body).toContain(text);
    }
    expect(form.body).toContain(`href="/domain/${domain.short}"`);

    const missing = await postForm(app, `/payment/${domain.short}`, {
      intent: "inquiry",
      name: " ",
      email: BUYER.email,
      message: "",
    });
    expect(missing.status).toBe(400);
    expect(missing.body).toContain("Please fill in all required fields");
    expect(inquiriesFor(domain.id)).toHaveLength(0);

    // An amount in the form is ignored: the server's fee is charged.
    const started = await postForm(app, `/payment/${domain.short}`, {
      intent: "inquiry",
      ...BUYER,
      amount: "1",
      website: "",
    });
    expect(started.status).toBe(303);
    const checkoutPath = started.headers.get("location")!;
    expect(checkoutPath).toMatch(/^\/test-checkout\/tcs_/);
    const [inquiry] = inquiriesFor(domain.id);
    expect(inquiry).toMatchObject({ status: "pending", amount_cents: feeCents, name: BUYER.name, provider: "test" });

    const checkout = await request(app, checkoutPath);
    expect(checkout.body).toContain("Test mode - no real charge");
    expect(checkout.body).toContain("$19.99");

    const declined = await postForm(app, checkoutPath, {
      card_number: "4000 0000 0000 0002",
      expiry: "12/40",
      cvc: "123",
    });
    expect(declined.status).toBe(402);
    expect(declined.body).toContain("Your card was declined.");
    const invalid = await postForm(app, checkoutPath, { card_number: "1234", expiry: "12/40", cvc: "123" });
    expect(invalid.body).toContain("Your card number is invalid.");
    expect(inquiryCount(domain.id)).toBe(0);

    const paid = await postForm(app, checkoutPath, { card_number: "4242 4242 4242 4242", expiry: "12/40", cvc: "123" });
    expect(paid.status).toBe(303);
    const back = new URL(paid.headers.get("location")!);
    expect(back.pathname).toBe(`/payment/${domain.short}`);
    expect(back.searchParams.get("inquiry")).toBe(inquiry.public_id);

    // The success return, reloaded and raced: one paid inquiry, one increment.
    const pages = await Promise.all([1, 2, 3].map(() => request(app, back.pathname + back.search)));
    for (const page of pages) {
      expect(page.status).toBe(200);
      expect(page.body).toContain("Payment Successful!");
      expect(page.body).toContain(`Your inquiry for ${domain.name} has been sent to the owner.`);
      expect(page.body).toContain("Browse More Domains");
    }
    expect(inquiryCount(domain.id)).toBe(1);
    expect(inquiriesFor(domain.id)[0]).toMatchObject({ status: "paid" });
    // Paying the same checkout again is refused by the checkout page (already paid: straight back).
    const again = await postForm(app, checkoutPath, {
      card_number: "4242 4242 4242 4242",
      expiry: "12/40",
      cvc: "123",
    });
    expect(again.status).toBe(303);
    expect(inquiryCount(domain.id)).toBe(1);

    // The owner's email is written as an .eml file (no SMTP_URL), once.
    const mailDir = path.join(app.dataDir, "mail");
    const file = await waitFor(
      () =>
        existsSync(mailDir) &&
        readdirSync(mailDir).find(
          (f) => f.includes("owner_inquiry") && readFileSync(path.join(mailDir, f), "utf8").includes(domain.name),
        ),
      10_000,
      "owner email",
    );
    const eml = readFileSync(path.join(mailDir, file), "utf8");
    expect(eml).toContain("To: owner@example.test");
    expect(eml).toContain(`Reply-To: ${BUYER.email}`);
    for (const text of [BUYER.name, BUYER.phone, BUYER.offer, BUYER.message]) expect(eml).toContain(text);
    const outbox = app
      .db()
      .prepare("SELECT count(*) AS n FROM outbox WHERE inquiry_id = ? AND kind = 'owner_inquiry'")
      .get(inquiry.id) as { n: number };
    expect(outbox.n).toBe(1);
    await waitFor(
      () =>
        (app.db().prepare("SELECT owner_notified_at FROM inquiries WHERE id = ?").get(inquiry.id) as any)
          .owner_notified_at,
      5_000,
      "owner_notified_at",
    );
  });

  it("a canceled checkout returns to the payment step, which offers a new checkout", async () => {
    const domain = newDomain();
    const started = await postForm(app, `/payment/${domain.short}`, { intent: "inquiry", ...BUYER });
    const checkout = await request(app, started.headers.get("location")!);
    const cancelUrl = /href="(http[^"]*canceled=1)"/.exec(checkout.body)![1]!.replace(/&amp;/g, "&");
    const page = await request(app, cancelUrl);
    expect(page.body).toContain("Complete Payment");
    expect(page.body).toContain("Payment canceled. You have not been charged.");
    expect(page.body).toContain("Pay $19.99");
    const inquiryId = new URL(cancelUrl).searchParams.get("inquiry")!;
    const resumed = await postForm(app, `/payment/${domain.short}`, { intent: "checkout", inquiry: inquiryId });
    expect(resumed.status).toBe(303);
    // The still-open checkout is reused: one payment per inquiry.
    expect(resumed.headers.get("location")).toBe(started.headers.get("location"));
  });

  it("answers an unknown domain with the not-found view and 404", async () => {
    const page = await request(app, "/payment/definitely-not-listed-here");
    expect(page.status).toBe(404);
    expect(page.body).toContain("Domain not found.");
    expect(page.body).toContain("Back to Home");
  });

  it("a filled honeypot creates nothing", async () => {
    const domain = newDomain();
    const reply = await postForm(app, `/payment/${domain.short}`, {
      intent: "inquiry",
      ...BUYER,
      website: "http://spam.example",
    });
    expect(reply.status).toBe(400);
    expect(inquiriesFor(domain.id)).toHaveLength(0);
  });

  it("drops NUL characters from the form and keeps the rest (PostgreSQL cannot store them)", async () => {
    const domain = newDomain();
    const nameOnlyNul = await postForm(app, `/payment/${domain.short}`, {
      intent: "inquiry",
      ...BUYER,
      name: "\u0000",
    });
    expect(nameOnlyNul.status).toBe(400);
    expect(nameOnlyNul.body).toContain("Please fill in all required fields");
    const started = await postForm(app, `/payment/${domain.short}`, {
      intent: "inquiry",
      ...BUYER,
      name: "Ada\u0000 Buyer",
      message: "Hello\u0000 there",
    });
    expect(started.status).toBe(303);
    expect(inquiriesFor(domain.id)).toMatchObject([{ name: "Ada Buyer", message: "Hello there" }]);
  });

  it("a fee of 0 skips payment and fulfils the inquiry directly", async () => {
    const domain = newDomain("");
    setFeeCents(app.db(), 0);
    try {
      const reply = await postForm(app, `/payment/${domain.short}`, { intent: "inquiry", ...BUYER });
      expect(reply.status).toBe(303);
      const page = await request(app, reply.headers.get("location")!);
      expect(page.body).toContain("Payment Successful!");
      expect(inquiryCount(domain.id)).toBe(1);
      // No owner email on the domain: ADMIN_EMAIL receives it.
      const row = await waitFor(
        () =>
          app
            .db()
            .prepare("SELECT to_address FROM outbox WHERE inquiry_id = ?")
            .get(inquiriesFor(domain.id)[0].id) as any,
        5_000,
      );
      expect(row.to_address).toBe("admin@example.test");
      // Free inquiries are limited per address (5 an hour): nothing filters spam when they cost nothing.
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++)
        statuses.push((await postForm(app, `/payment/${domain.short}`, { intent: "inquiry", ...BUYER })).status);
      expect(statuses).toEqual([303, 303, 303, 303, 429]);
      const limited = await postForm(app, `/payment/${domain.short}`, { intent: "inquiry", ...BUYER });
      expect(limited.body).toContain("Too many inquiries from your address. Please try again later.");
      expect(inquiryCount(domain.id)).toBe(5);
    } finally {
      setFeeCents(app.db(), feeCents);
    }
  });
});

describe("JSON routes with the test provider (the JavaScript path)", () => {
  it("creates a payment for the server's fee, declines 4000…0002, confirms once after 4242", async () => {
    const domain = newDomain();
    const created = await postJson(app, "/api/create-payment-intent", {
      domain_name: domain.short,
      amount: 1,
      currency: "eur",
      customer_info: BUYER,
    });
    expect(created.status).toBe(200);
    expect(created.json.client_secret).toMatch(/_secret_/);
    expect(created.json.amount).toBe(feeCents);
    const paymentId = created.json.payment_intent_id as string;
    const [inquiry] = inquiriesFor(domain.id);
    expect(inquiry).toMatchObject({ amount_cents: feeCents, currency: "usd", payment_intent_id: paymentId });
    const payment = app.db().prepare("SELECT amount_cents FROM test_payments WHERE id = ?").get(paymentId) as any;
    expect(payment.amount_cents).toBe(feeCents);

    const early = await postJson(app, "/api/confirm-payment", {
      payment_intent_id: paymentId,
      domain_name: domain.short,
    });
    expect(early.json.error).toBeTruthy();
    expect(inquiryCount(domain.id)).toBe(0);

    const declined = await postJson(app, "/api/test-payments/confirm", {
      client_secret: created.json.client_secret,
      card_number: "4000000000000002",
      expiry: "12/40",
      cvc: "123",
    });
    expect(declined).toMatchObject({ status: 402, json: { error: "Your card was declined." } });
    const declinedConfirm = await postJson(app, "/api/confirm-payment", {
      payment_intent_id: paymentId,
      domain_name: domain.short,
    });
    expect(declinedConfirm.json.error).toBeTruthy();
    expect(inquiryCount(domain.id)).toBe(0);

    const approved = await postJson(app, "/api/test-payments/confirm", {
      client_secret: created.json.client_secret,
      card_number: "4242424242424242",
      expiry: "12/40",
      cvc: "123",
    });
    expect(approved.json).toMatchObject({ status: "succeeded", payment_intent_id: paymentId });
    const confirms = await Promise.all(
      [1, 2, 3].map(() =>
        postJson(app, "/api/confirm-payment", {
          payment_intent_id: paymentId,
          domain_name: domain.short,
          customer_info: BUYER,
        }),
      ),
    );
    for (const confirm of confirms) expect(confirm.json).toMatchObject({ ok: true });
    expect(inquiryCount(domain.id)).toBe(1);
    expect(inquiriesFor(domain.id)[0].status).toBe("paid");
  });

  it("returns the spec's message for missing fields, and the not-found error", async () => {
    const domain = newDomain();
    const missing = await postJson(app, "/api/create-payment-intent", {
      domain_name: domain.short,
      customer_info: { name: "A" },
    });
    expect(missing).toMatchObject({ status: 400, json: { error: "Please fill in all required fields" } });
    const badEmail = await postJson(app, "/api/create-payment-intent", {
      domain_name: domain.short,
      customer_info: { ...BUYER, email: "not-an-email" },
    });
    expect(badEmail.json.error).toBe("Please enter a valid email address");
    const long = await postJson(app, "/api/create-payment-intent", {
      domain_name: domain.short,
      customer_info: { ...BUYER, message: "x".repeat(5001) },
    });
    expect(long.json.error).toContain("5,000");
    const unknown = await postJson(app, "/api/create-payment-intent", {
      domain_name: "no-such-domain-here",
      customer_info: BUYER,
    });
    expect(unknown.status).toBe(404);
  });

  it("refuses cross-origin calls, calls without an Origin, and oversized bodies", async () => {
    const domain = newDomain();
    const body = { domain_name: domain.short, customer_info: BUYER };
    const foreign = await postJson(app, "/api/create-payment-intent", body, { Origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    const noOrigin = await request(app, "/api/create-payment-intent", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(noOrigin.status).toBe(403);
    const huge = await postJson(app, "/api/create-payment-intent", { ...body, padding: "x".repeat(100_000) });
    expect(huge.status).toBe(413);
    expect(inquiriesFor(domain.id)).toHaveLength(0);
  });
});
