import { beforeAll, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  // A domain without an owner email sends its inquiries to the admin.
  Object.assign(process.env, { ADMIN_EMAIL: "admin@example.test", ADMIN_PASSWORD: "secret-password" });
});

import { setInquiryFee } from "../../app/server/catalog/settings.server";
import { db } from "../../app/server/db/database.server";
import { BUYER, createDomain } from "../support/factories";
import { useTestClock } from "../support/in-process/clock";
import { render } from "../support/in-process/document";
import { sentMail } from "../support/in-process/mail";

// The embedded test provider, as a browser without JavaScript (forms, 303s) and with it (JSON), its pages
// and resource routes rendered in process.
const feeCents = 1999;
const clock = useTestClock();
beforeAll(async () => {
  await setInquiryFee(feeCents);
});

const newDomain = (ownerEmail = "owner@example.test") =>
  createDomain({ prefix: "pay", priceCents: 500_000, ownerEmail });
const inquiryCount = async (id: number) =>
  Number(
    (await db.selectFrom("domains").select("inquiry_count").where("id", "=", id).executeTakeFirstOrThrow())
      .inquiry_count,
  );
const inquiriesFor = (id: number) =>
  db.selectFrom("inquiries").selectAll().where("domain_id", "=", id).orderBy("id").execute();
const postForm = (path: string, form: Record<string, string>) => render(path, { form });
const postJson = async (path: string, json: unknown, options: { origin?: string | null } = {}) => {
  const reply = await render(path, { json, ...options });
  return { status: reply.status, json: JSON.parse(reply.body) as Record<string, any> };
};

describe("no-JavaScript payment flow with the test provider", () => {
  it("shows the form, refuses missing fields, and pays once with 4242", async () => {
    const domain = await newDomain();
    const form = await render(`/payment/${domain.short}`);
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

    const missing = await postForm(`/payment/${domain.short}`, {
      intent: "inquiry",
      name: " ",
      email: BUYER.email,
      message: "",
    });
    expect(missing.status).toBe(400);
    expect(missing.body).toContain("Please fill in all required fields");
    expect(await inquiriesFor(domain.id)).toHaveLength(0);

    // An amount in the form is ignored: the server's fee is charged.
    const started = await postForm(`/payment/${domain.short}`, {
      intent: "inquiry",
      ...BUYER,
      amount: "1",
      website: "",
    });
    expect(started.status).toBe(303);
    const checkoutPath = started.location!;
    expect(checkoutPath).toMatch(/^\/test-checkout\/tcs_/);
    const [inquiry] = await inquiriesFor(domain.id);
    expect(inquiry).toMatchObject({ status: "pending", amount_cents: feeCents, name: BUYER.name, provider: "test" });

    const checkout = await render(checkoutPath);
    expect(checkout.body).toContain("Test mode - no real charge");
    expect(checkout.body).toContain("$19.99");

    const declined = await postForm(checkoutPath, { card_number: "4000 0000 0000 0002", expiry: "12/40", cvc: "123" });
    expect(declined.status).toBe(402);
    expect(declined.body).toContain("Your card was declined.");
    const invalid = await postForm(checkoutPath, { card_number: "1234", expiry: "12/40", cvc: "123" });
    expect(invalid.body).toContain("Your card number is invalid.");
    expect(await inquiryCount(domain.id)).toBe(0);

    const paid = await postForm(checkoutPath, { card_number: "4242 4242 4242 4242", expiry: "12/40", cvc: "123" });
    expect(paid.status).toBe(303);
    const back = new URL(paid.location!);
    expect(back.pathname).toBe(`/payment/${domain.short}`);
    expect(back.searchParams.get("inquiry")).toBe(inquiry!.public_id);

    // The success return, reloaded and raced: one paid inquiry, one increment.
    const pages = await Promise.all([1, 2, 3].map(() => render(back.pathname + back.search)));
    for (const page of pages) {
      expect(page.status).toBe(200);
      expect(page.body).toContain("Payment Successful!");
      expect(page.body).toContain(`Your inquiry for ${domain.domain_name} has been sent to the owner.`);
      expect(page.body).toContain("Browse More Domains");
    }
    expect(await inquiryCount(domain.id)).toBe(1);
    expect((await inquiriesFor(domain.id))[0]).toMatchObject({ status: "paid" });
    // Paying the same checkout again is refused by the checkout page (already paid: straight back).
    const again = await postForm(checkoutPath, { card_number: "4242 4242 4242 4242", expiry: "12/40", cvc: "123" });
    expect(again.status).toBe(303);
    expect(await inquiryCount(domain.id)).toBe(1);

    // The owner's email is written as an .eml file (no SMTP_URL), once.
    // The outbox's message id names its kind (<outbox-N-owner_inquiry@host>), as the .eml file name does.
    const ownerMails = (await sentMail()).filter(
      (mail) => mail.raw.includes("-owner_inquiry@") && mail.raw.includes(domain.domain_name),
    );
    expect(ownerMails).toHaveLength(1);
    const eml = ownerMails[0]!.raw;
    expect(eml).toContain("To: owner@example.test");
    expect(eml).toContain(`Reply-To: ${BUYER.email}`);
    for (const text of [BUYER.name, BUYER.phone, BUYER.offer, BUYER.message]) expect(eml).toContain(text);
    const outbox = await db
      .selectFrom("outbox")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("inquiry_id", "=", inquiry!.id)
      .where("kind", "=", "owner_inquiry")
      .executeTakeFirstOrThrow();
    expect(Number(outbox.n)).toBe(1);
    expect((await inquiriesFor(domain.id))[0]!.owner_notified_at, "owner_notified_at").toBeTruthy();
  });

  it("a canceled checkout returns to the payment step, which offers a new checkout", async () => {
    const domain = await newDomain();
    const started = await postForm(`/payment/${domain.short}`, { intent: "inquiry", ...BUYER });
    const checkout = await render(started.location!);
    const cancelUrl = /href="(http[^"]*canceled=1)"/.exec(checkout.body)![1]!.replace(/&amp;/g, "&");
    const page = await render(cancelUrl);
    expect(page.body).toContain("Complete Payment");
    expect(page.body).toContain("Payment canceled. You have not been charged.");
    expect(page.body).toContain("Pay $19.99");
    const inquiryId = new URL(cancelUrl).searchParams.get("inquiry")!;
    const resumed = await postForm(`/payment/${domain.short}`, { intent: "checkout", inquiry: inquiryId });
    expect(resumed.status).toBe(303);
    // The still-open checkout is reused: one payment per inquiry.
    expect(resumed.location).toBe(started.location);
  });

  it("answers an unknown domain with the not-found view and 404", async () => {
    const page = await render("/payment/definitely-not-listed-here");
    expect(page.status).toBe(404);
    expect(page.body).toContain("Domain not found.");
    expect(page.body).toContain("Back to Home");
  });

  it("a filled honeypot creates nothing", async () => {
    const domain = await newDomain();
    const reply = await postForm(`/payment/${domain.short}`, {
      intent: "inquiry",
      ...BUYER,
      website: "http://spam.example",
    });
    expect(reply.status).toBe(400);
    expect(await inquiriesFor(domain.id)).toHaveLength(0);
  });

  it("drops NUL characters from the form and keeps the rest (PostgreSQL cannot store them)", async () => {
    const domain = await newDomain();
    const nameOnlyNul = await postForm(`/payment/${domain.short}`, { intent: "inquiry", ...BUYER, name: "\u0000" });
    expect(nameOnlyNul.status).toBe(400);
    expect(nameOnlyNul.body).toContain("Please fill in all required fields");
    const started = await postForm(`/payment/${domain.short}`, {
      intent: "inquiry",
      ...BUYER,
      name: "Ada\u0000 Buyer",
      message: "Hello\u0000 there",
    });
    expect(started.status).toBe(303);
    expect(await inquiriesFor(domain.id)).toMatchObject([{ name: "Ada Buyer", message: "Hello there" }]);
  });

  it("a fee of 0 skips payment and fulfils the inquiry directly", async () => {
    const domain = await newDomain("");
    await setInquiryFee(0);
    try {
      const reply = await postForm(`/payment/${domain.short}`, { intent: "inquiry", ...BUYER });
      expect(reply.status).toBe(303);
      const page = await render(reply.location!);
      expect(page.body).toContain("Payment Successful!");
      expect(await inquiryCount(domain.id)).toBe(1);
      // No owner email on the domain: ADMIN_EMAIL receives it.
      const row = await db
        .selectFrom("outbox")
        .select("to_address")
        .where("inquiry_id", "=", (await inquiriesFor(domain.id))[0]!.id)
        .executeTakeFirstOrThrow();
      expect(row.to_address).toBe("admin@example.test");
      // Free inquiries are limited per address (5 an hour): nothing filters spam when they cost nothing.
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++)
        statuses.push((await postForm(`/payment/${domain.short}`, { intent: "inquiry", ...BUYER })).status);
      expect(statuses).toEqual([303, 303, 303, 303, 429]);
      const limited = await postForm(`/payment/${domain.short}`, { intent: "inquiry", ...BUYER });
      expect(limited.body).toContain("Too many inquiries from your address. Please try again later.");
      expect(await inquiryCount(domain.id)).toBe(5);
    } finally {
      await setInquiryFee(feeCents);
    }
  });
});

describe("JSON routes with the test provider (the JavaScript path)", () => {
  it("creates a payment for the server's fee, declines 4000…0002, confirms once after 4242", async () => {
    const domain = await newDomain();
    const created = await postJson("/api/create-payment-intent", {
      domain_name: domain.short,
      amount: 1,
      currency: "eur",
      customer_info: BUYER,
    });
    expect(created.status).toBe(200);
    expect(created.json.client_secret).toMatch(/_secret_/);
    expect(created.json.amount).toBe(feeCents);
    const paymentId = created.json.payment_intent_id as string;
    const [inquiry] = await inquiriesFor(domain.id);
    expect(inquiry).toMatchObject({ amount_cents: feeCents, currency: "usd", payment_intent_id: paymentId });
    const payment = await db
      .selectFrom("test_payments")
      .select("amount_cents")
      .where("id", "=", paymentId)
      .executeTakeFirstOrThrow();
    expect(Number(payment.amount_cents)).toBe(feeCents);

    const early = await postJson("/api/confirm-payment", { payment_intent_id: paymentId, domain_name: domain.short });
    expect(early.json.error).toBeTruthy();
    expect(await inquiryCount(domain.id)).toBe(0);

    const declined = await postJson("/api/test-payments/confirm", {
      client_secret: created.json.client_secret,
      card_number: "4000000000000002",
      expiry: "12/40",
      cvc: "123",
    });
    expect(declined).toMatchObject({ status: 402, json: { error: "Your card was declined." } });
    // A while later: one payment is asked about at most once per 2 s of the app's clock.
    clock.advance(2_100);
    const declinedConfirm = await postJson("/api/confirm-payment", {
      payment_intent_id: paymentId,
      domain_name: domain.short,
    });
    expect(declinedConfirm.json.error).toBeTruthy();
    expect(await inquiryCount(domain.id)).toBe(0);

    const approved = await postJson("/api/test-payments/confirm", {
      client_secret: created.json.client_secret,
      card_number: "4242424242424242",
      expiry: "12/40",
      cvc: "123",
    });
    expect(approved.json).toMatchObject({ status: "succeeded", payment_intent_id: paymentId });
    clock.advance(2_100);
    const confirms = await Promise.all(
      [1, 2, 3].map(() =>
        postJson("/api/confirm-payment", {
          payment_intent_id: paymentId,
          domain_name: domain.short,
          customer_info: BUYER,
        }),
      ),
    );
    for (const confirm of confirms) expect(confirm.json).toMatchObject({ ok: true });
    expect(await inquiryCount(domain.id)).toBe(1);
    expect((await inquiriesFor(domain.id))[0]!.status).toBe("paid");
  });

  it("returns the spec's message for missing fields, and the not-found error", async () => {
    const domain = await newDomain();
    const missing = await postJson("/api/create-payment-intent", {
      domain_name: domain.short,
      customer_info: { name: "A" },
    });
    expect(missing).toMatchObject({ status: 400, json: { error: "Please fill in all required fields" } });
    const badEmail = await postJson("/api/create-payment-intent", {
      domain_name: domain.short,
      customer_info: { ...BUYER, email: "not-an-email" },
    });
    expect(badEmail.json.error).toBe("Please enter a valid email address");
    const long = await postJson("/api/create-payment-intent", {
      domain_name: domain.short,
      customer_info: { ...BUYER, message: "x".repeat(5001) },
    });
    expect(long.json.error).toContain("5,000");
    const unknown = await postJson("/api/create-payment-intent", {
      domain_name: "no-such-domain-here",
      customer_info: BUYER,
    });
    expect(unknown.status).toBe(404);
  });

  it("refuses cross-origin calls, calls without an Origin, and oversized bodies", async () => {
    const domain = await newDomain();
    const body = { domain_name: domain.short, customer_info: BUYER };
    const foreign = await postJson("/api/create-payment-intent", body, { origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    const noOrigin = await postJson("/api/create-payment-intent", body, { origin: null });
    expect(noOrigin.status).toBe(403);
    const huge = await postJson("/api/create-payment-intent", { ...body, padding: "x".repeat(100_000) });
    expect(huge.status).toBe(413);
    expect(await inquiriesFor(domain.id)).toHaveLength(0);
  });
});
