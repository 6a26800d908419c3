import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeDataDir, startAppServer, type AppServer } from "../support/app-server";
import { insertDomain, uniqueDomainName } from "../support/data";
import { startFakeStripe, stripeEvent, type FakeStripe } from "../support/fake-stripe";
import { BUYER, postForm, postJson, request, setFeeCents } from "../support/http";

// The stripe provider through the real stripe SDK, pointed at a Stripe-compatible server.
const WEBHOOK_SECRET = "whsec_test_secret_for_payments";
const stripeForSigning = new Stripe("sk_test_fake");
let fake: FakeStripe;
let app: AppServer;

beforeAll(async () => {
  fake = await startFakeStripe();
  app = await startAppServer({
    env: {
      STRIPE_SECRET_KEY: "sk_test_fake",
      STRIPE_PUBLISHABLE_KEY: "pk_test_fake",
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: fake.url,
      MAIL_RETRY_BASE_MS: "50",
      // Every buyer here shares one address; the card-testing caps are tested in money-path.test.ts.
      MAX_PAYMENTS_PER_ADDRESS_PER_HOUR: "1000",
    },
  });
});
afterAll(async () => {
  await app?.stop();
  if (app) removeDataDir(app);
  await fake?.stop();
});

function newDomain() {
  const name = uniqueDomainName("stripe");
  const id = insertDomain(app.db(), { name, priceCents: 900_000 });
  return { id, name, short: name.replace(/\.com$/, "") };
}
const inquiryCount = (id: number) =>
  (app.db().prepare("SELECT inquiry_count AS n FROM domains WHERE id = ?").get(id) as { n: number }).n;
const inquiriesFor = (id: number) =>
  app.db().prepare("SELECT * FROM inquiries WHERE domain_id = ? ORDER BY id").all(id) as any[];

async function createIntent(domain: { short: string }, extra: Record<string, unknown> = {}) {
  return postJson(app, "/api/create-payment-intent", {
    domain_name: domain.short,
    customer_info: BUYER,
    amount: 50,
    ...extra,
  });
}

function sendWebhook(
  event: Record<string, any>,
  options: { timestamp?: number; tamper?: (payload: string) => string; secret?: string } = {},
) {
  const payload = JSON.stringify(event);
  const header = stripeForSigning.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? WEBHOOK_SECRET,
    timestamp: options.timestamp ?? Math.floor(Date.now() / 1000),
  });
  return request(app, "/webhooks/stripe", {
    method: "POST",
    headers: { "Content-Type": "application/json", "Stripe-Signature": header },
    body: options.tamper ? options.tamper(payload) : payload,
  });
}

describe("the domain page with real payments", () => {
  it('says "Payments by Stripe" beside the inquiry button, and nothing of test mode', async () => {
    const domain = newDomain();
    const page = await request(app, `/domain/${domain.short}`);
    expect(page.status).toBe(200);
    expect(page.body).toMatch(/>Start Inquiry \(\$[\d.]+\)<\/a><p data-payments[^>]*>.*?Payments by Stripe<\/p>/s);
    expect(page.body).not.toContain("Test mode - no real charge");
  });
});

describe("JavaScript path: PaymentIntent through the JSON routes", () => {
  it("sends the server's fee with an idempotency key, and confirms a succeeded payment once", async () => {
    const domain = newDomain();
    const created = await createIntent(domain);
    expect(created.status).toBe(200);
    const intentId = created.json.payment_intent_id;
    const intent = fake.paymentIntents.get(intentId)!;
    expect(created.json.client_secret).toBe(intent.client_secret);

    const [sent] = fake
      .requestsTo("POST", "/v1/payment_intents")
      .filter((r) => r.body.metadata?.domain === domain.name);
    expect(sent!.body.amount).toBe("1999");
    expect(sent!.body.currency).toBe("usd");
    const [inquiry] = inquiriesFor(domain.id);
    expect(sent!.body.metadata).toEqual({ inquiry_id: inquiry.public_id, domain: domain.name });
    expect(sent!.headers["idempotency-key"]).toBe(`payment:${inquiry.public_id}`);
    expect(sent!.headers.authorization).toBe("Bearer sk_test_fake");

    // The payment step (JavaScript) is reachable by URL and carries what the Payment Element needs.
    const page = await request(app, created.json.redirect);
    expect(page.body).toContain("Complete Payment");
    expect(page.body).toContain("Pay $19.99");
    expect(page.body).toContain(intent.client_secret);

    const early = await postJson(app, "/api/confirm-payment", {
      payment_intent_id: intentId,
      domain_name: domain.short,
    });
    expect(early.status).toBe(402);
    fake.confirm(intentId, "pm_card_chargeDeclined");
    const declined = await postJson(app, "/api/confirm-payment", {
      payment_intent_id: intentId,
      domain_name: domain.short,
    });
    expect(declined.json.error).toBeTruthy();
    expect(inquiryCount(domain.id)).toBe(0);

    fake.confirm(intentId, "pm_card_visa");
    const confirms = await Promise.all(
      [1, 2, 3].map(() =>
        postJson(app, "/api/confirm-payment", {
          payment_intent_id: intentId,
          domain_name: domain.short,
          customer_info: BUYER,
        }),
      ),
    );
    for (const confirm of confirms) expect(confirm.json.ok).toBe(true);
    expect(inquiryCount(domain.id)).toBe(1);
    expect(inquiriesFor(domain.id)[0]).toMatchObject({ status: "paid", payment_intent_id: intentId });
    const success = await request(app, created.json.redirect);
    expect(success.body).toContain("Payment Successful!");
  });

  it("charges the fee in force when the inquiry is made", async () => {
    const domain = newDomain();
    setFeeCents(app.db(), 2500);
    try {
      const created = await createIntent(domain, { amount: 1 });
      expect(fake.paymentIntents.get(created.json.payment_intent_id)!.amount).toBe(2500);
    } finally {
      setFeeCents(app.db(), 1999);
    }
  });

  it("answers a Stripe failure with 'Failed to create payment intent'", async () => {
    const domain = newDomain();
    fake.failNext({
      method: "POST",
      path: "/v1/payment_intents",
      status: 400,
      error: { type: "invalid_request_error", message: "Amount too small" },
    });
    const created = await createIntent(domain);
    expect(created.status).toBe(502);
    expect(created.json).toEqual({ error: "Failed to create payment intent" });
    expect(inquiryCount(domain.id)).toBe(0);
  });

  it("does not fulfil a payment whose amount differs from the inquiry's", async () => {
    const domain = newDomain();
    const created = await createIntent(domain);
    const intent = fake.paymentIntents.get(created.json.payment_intent_id)!;
    intent.amount = 1;
    fake.confirm(intent.id);
    const confirm = await postJson(app, "/api/confirm-payment", {
      payment_intent_id: intent.id,
      domain_name: domain.short,
    });
    expect(confirm.json).toEqual({ error: "Failed to process inquiry" });
    expect(inquiryCount(domain.id)).toBe(0);
  });
});

describe("no-JavaScript path: Checkout Session over HTTP", () => {
  it("303s to the session, and the success return fulfils once", async () => {
    const domain = newDomain();
    const started = await postForm(app, `/payment/${domain.short}`, { intent: "inquiry", ...BUYER, amount: "1" });
    expect(started.status).toBe(303);
    const sessionUrl = started.headers.get("location")!;
    expect(sessionUrl.startsWith(`${fake.url}/pay/cs_test_`)).toBe(true);

    const [inquiry] = inquiriesFor(domain.id);
    const sent = fake
      .requestsTo("POST", "/v1/checkout/sessions")
      .find((r) => r.body.client_reference_id === inquiry.public_id)!;
    expect(sent.body.line_items["0"].price_data).toMatchObject({ unit_amount: "1999", currency: "usd" });
    expect(sent.body.mode).toBe("payment");
    expect(sent.body.success_url).toBe(
      `${app.url}/payment/${domain.short}?inquiry=${inquiry.public_id}&session_id={CHECKOUT_SESSION_ID}`,
    );
    expect(sent.body.cancel_url).toContain(`/payment/${domain.short}?inquiry=${inquiry.public_id}`);
    expect(sent.headers["idempotency-key"]).toBeTruthy();

    // A double submit of the payment step reuses the open session.
    const again = await postForm(app, `/payment/${domain.short}`, { intent: "checkout", inquiry: inquiry.public_id });
    expect(again.headers.get("location")).toBe(sessionUrl);

    // The buyer pays on "Stripe" and is sent back with a 303.
    const paid = await request(app, sessionUrl);
    expect(paid.status).toBe(303);
    const successUrl = paid.headers.get("location")!;
    expect(successUrl).toContain(`session_id=cs_test_`);
    const pages = await Promise.all([1, 2].map(() => request(app, successUrl)));
    for (const page of pages) expect(page.body).toContain("Payment Successful!");
    expect(inquiryCount(domain.id)).toBe(1);
    expect(inquiriesFor(domain.id)[0].status).toBe("paid");
  });
});

describe("the buyer's link after a Stripe payment (issue #34 item 1)", () => {
  const cookieOf = (reply: { headers: Headers }) =>
    reply.headers
      .getSetCookie()
      .map((cookie) => cookie.split(";")[0])
      .join("; ");
  const expectBuyerOnly = async (path: string, buyerCookie: string) => {
    const buyer = await request(app, path, { headers: { cookie: buyerCookie } });
    expect(buyer.body).toContain("Payment Successful!");
    expect(buyer.body).toMatch(/<a href="\/inquiry\/[^"]+\?sig=[^"]+"[^>]*>View your inquiry<\/a>/);
    expect(buyer.body).toContain(`A receipt was sent to ${BUYER.email}`);
    const stranger = await request(app, path);
    expect(stranger.headers.get("cache-control")).toBe("no-store");
    expect(stranger.body).toContain("Payment Successful!");
    for (const secret of ["View your inquiry", "sig=", BUYER.email]) expect(stranger.body).not.toContain(secret);
  };

  it("shows it after Checkout's return (a top-level GET from Stripe) to the browser that started it only", async () => {
    const domain = newDomain();
    const started = await postForm(app, `/payment/${domain.short}`, { intent: "inquiry", ...BUYER });
    expect(started.headers.getSetCookie().join()).toMatch(/inquiry_payer=[^;]+;.*SameSite=Lax/i);
    const paid = await request(app, started.headers.get("location")!);
    const successUrl = new URL(paid.headers.get("location")!);
    expect(successUrl.searchParams.get("session_id")).toMatch(/^cs_test_/);
    await expectBuyerOnly(successUrl.pathname + successUrl.search, cookieOf(started));
  });

  it("shows it after a PaymentIntent confirmed by the page's script to the browser that started it only", async () => {
    const domain = newDomain();
    const created = await createIntent(domain);
    expect(created.status).toBe(200);
    fake.confirm(created.json.payment_intent_id, "pm_card_visa");
    const confirmed = await postJson(app, "/api/confirm-payment", {
      payment_intent_id: created.json.payment_intent_id,
      domain_name: domain.short,
    });
    expect(confirmed.json.ok).toBe(true);
    await expectBuyerOnly(confirmed.json.redirect, cookieOf(created));
  });
});

describe("no-JavaScript path: Stripe unavailable", () => {
  it("keeps the inquiry and shows 'Failed to initialize payment' with a way to try again", async () => {
    const domain = newDomain();
    fake.failNext({
      method: "POST",
      path: "/v1/checkout/sessions",
      status: 400,
      error: { type: "invalid_request_error", message: "Bad request" },
    });
    const started = await postForm(app, `/payment/${domain.short}`, { intent: "inquiry", ...BUYER });
    expect(started.status).toBe(303);
    const back = started.headers.get("location")!;
    expect(back).toMatch(new RegExp(`^/payment/${domain.short}\\?inquiry=[\\w-]+&failed=1$`));
    const page = await request(app, back);
    expect(page.body).toContain("Failed to initialize payment");
    expect(page.body).toContain("Pay $19.99");
    const [inquiry] = inquiriesFor(domain.id);
    const retry = await postForm(app, `/payment/${domain.short}`, { intent: "checkout", inquiry: inquiry.public_id });
    expect(retry.headers.get("location")).toMatch(/\/pay\/cs_test_/);
  });
});

describe("Stripe webhooks", () => {
  async function paidIntent() {
    const domain = newDomain();
    const created = await createIntent(domain);
    const intent = fake.confirm(created.json.payment_intent_id);
    return { domain, intent };
  }

  it("fulfils on a valid payment_intent.succeeded, and ignores the same event delivered three more times", async () => {
    const { domain, intent } = await paidIntent();
    const event = stripeEvent("payment_intent.succeeded", intent);
    const first = await sendWebhook(event);
    expect(first.status).toBe(200);
    expect(JSON.parse(first.body)).toEqual({ received: true, duplicate: false });
    const repeats = await Promise.all([1, 2, 3].map(() => sendWebhook(event)));
    for (const repeat of repeats) expect(repeat.status).toBe(200);
    expect(repeats.map((r) => JSON.parse(r.body).duplicate)).toEqual([true, true, true]);
    expect(inquiryCount(domain.id)).toBe(1);
    const stored = app.db().prepare("SELECT count(*) AS n FROM processed_events WHERE id = ?").get(event.id) as {
      n: number;
    };
    expect(stored.n).toBe(1);
  });

  it("refuses a tampered body, a stale signature, a wrong secret and a missing signature with 400", async () => {
    const { domain, intent } = await paidIntent();
    const event = stripeEvent("payment_intent.succeeded", intent);
    const tampered = await sendWebhook(event, {
      tamper: (payload) => payload.replace('"livemode":false', '"livemode":true'),
    });
    expect(tampered.status).toBe(400);
    const stale = await sendWebhook(event, { timestamp: Math.floor(Date.now() / 1000) - 15 * 60 });
    expect(stale.status).toBe(400);
    const wrongSecret = await sendWebhook(event, { secret: "whsec_someone_else" });
    expect(wrongSecret.status).toBe(400);
    const unsigned = await request(app, "/webhooks/stripe", { method: "POST", body: JSON.stringify(event) });
    expect(unsigned.status).toBe(400);
    expect(inquiryCount(domain.id)).toBe(0);
  });

  it("acts on the payment's current state, whatever order the events arrive in", async () => {
    const domain = newDomain();
    const created = await createIntent(domain);
    const intentId = created.json.payment_intent_id;
    const staleSnapshot = { ...fake.paymentIntents.get(intentId)! };
    // A failure event arrives while the payment is still open: nothing is recorded.
    fake.confirm(intentId, "pm_card_chargeDeclined");
    expect(
      (await sendWebhook(stripeEvent("payment_intent.payment_failed", { ...fake.paymentIntents.get(intentId)! })))
        .status,
    ).toBe(200);
    // The succeeded event is delivered late, with an old snapshot in its body; Stripe is asked instead.
    fake.confirm(intentId, "pm_card_visa");
    expect((await sendWebhook(stripeEvent("payment_intent.succeeded", staleSnapshot))).status).toBe(200);
    expect(inquiryCount(domain.id)).toBe(1);
    // An older failure event arriving after success changes nothing.
    expect((await sendWebhook(stripeEvent("payment_intent.payment_failed", staleSnapshot))).status).toBe(200);
    expect(inquiriesFor(domain.id)[0].status).toBe("paid");
    expect(inquiryCount(domain.id)).toBe(1);
  });

  it("checkout.session.completed fulfils a no-JavaScript payment, once with the success return", async () => {
    const domain = newDomain();
    const started = await postForm(app, `/payment/${domain.short}`, { intent: "inquiry", ...BUYER });
    const sessionId = new URL(started.headers.get("location")!).pathname.split("/").pop()!;
    const { successUrl } = fake.completeCheckout(sessionId);
    expect((await sendWebhook(stripeEvent("checkout.session.completed", fake.sessions.get(sessionId)!))).status).toBe(
      200,
    );
    expect(inquiryCount(domain.id)).toBe(1);
    expect((await request(app, successUrl)).body).toContain("Payment Successful!");
    expect(inquiryCount(domain.id)).toBe(1);
  });

  it("refund.updated finishes a refund that was pending (asked of Stripe, not taken from the event)", async () => {
    const { domain, intent } = await paidIntent();
    expect((await sendWebhook(stripeEvent("payment_intent.succeeded", intent))).status).toBe(200);
    const [inquiry] = inquiriesFor(domain.id);
    // A second payment for the paid inquiry; Stripe answers its refund with "pending".
    const twin = await new Stripe("sk_test_fake", {
      host: "127.0.0.1",
      port: Number(new URL(fake.url).port),
      protocol: "http",
    }).paymentIntents.create({
      amount: 1999,
      currency: "usd",
      metadata: { inquiry_id: inquiry.public_id, domain: domain.name },
    });
    fake.confirm(twin.id);
    fake.nextRefundStatus("pending");
    expect((await sendWebhook(stripeEvent("payment_intent.succeeded", fake.paymentIntents.get(twin.id)!))).status).toBe(
      200,
    );
    const stray = () =>
      app.db().prepare("SELECT state, refund_id FROM stray_payments WHERE payment_id = ?").get(twin.id) as {
        state: string;
        refund_id: string;
      };
    expect(stray().state).toBe("pending");
    // An event claiming success while Stripe still says pending changes nothing.
    const refund = fake.refunds.get(stray().refund_id)!;
    expect((await sendWebhook(stripeEvent("refund.updated", { ...refund, status: "succeeded" }))).status).toBe(200);
    expect(stray().state).toBe("pending");
    fake.settleRefund(refund.id, "succeeded");
    expect((await sendWebhook(stripeEvent("refund.updated", refund))).status).toBe(200);
    expect(stray().state).toBe("refunded");
  });

  it("payment_intent.payment_failed counts declines: the fifth cancels the payment and closes the inquiry", async () => {
    const domain = newDomain();
    const created = await createIntent(domain);
    const intentId = created.json.payment_intent_id;
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      fake.confirm(intentId, "pm_card_chargeDeclined");
      expect(
        (await sendWebhook(stripeEvent("payment_intent.payment_failed", { ...fake.paymentIntents.get(intentId)! })))
          .status,
      ).toBe(200);
    }
    expect(fake.paymentIntents.get(intentId)!.status).toBe("canceled");
    expect(inquiriesFor(domain.id)[0]).toMatchObject({ status: "failed", declines: 5 });
  });

  it("answers 500 when Stripe cannot be reached, so Stripe retries, and the retry fulfils", async () => {
    const { domain, intent } = await paidIntent();
    const event = stripeEvent("payment_intent.succeeded", intent);
    fake.failNext({
      method: "GET",
      path: `/v1/payment_intents/${intent.id}`,
      status: 500,
      error: { type: "api_error", message: "down" },
      times: 3,
    });
    expect((await sendWebhook(event)).status).toBe(500);
    expect(inquiryCount(domain.id)).toBe(0);
    expect((await sendWebhook(event)).status).toBe(200);
    expect(inquiryCount(domain.id)).toBe(1);
  });
});

describe("never charged twice", () => {
  it("a second successful payment for an already-paid inquiry is refunded automatically", async () => {
    const domain = newDomain();
    // The buyer starts with JavaScript (payment A), then also pays through Checkout (payment B).
    const created = await createIntent(domain);
    const [inquiry] = inquiriesFor(domain.id);
    const checkout = await postForm(app, `/payment/${domain.short}`, {
      intent: "checkout",
      inquiry: inquiry.public_id,
    });
    const sessionId = new URL(checkout.headers.get("location")!).pathname.split("/").pop()!;
    const { successUrl, paymentIntent } = fake.completeCheckout(sessionId);
    expect((await request(app, successUrl)).body).toContain("Payment Successful!");
    fake.confirm(created.json.payment_intent_id);
    const confirm = await postJson(app, "/api/confirm-payment", {
      payment_intent_id: created.json.payment_intent_id,
      domain_name: domain.short,
    });
    // The confirm call for payment A finds the inquiry already paid by B: A is refunded, the buyer sees success.
    expect(confirm.json).toMatchObject({ ok: true, inquiry_id: inquiry.public_id });
    expect(inquiryCount(domain.id)).toBe(1);
    expect(inquiriesFor(domain.id)[0]).toMatchObject({ status: "paid", payment_intent_id: paymentIntent.id });
    const refund = [...fake.refunds.values()].find((r) => r.payment_intent === created.json.payment_intent_id);
    expect(refund).toMatchObject({ status: "succeeded", amount: 1999 });
    const refundRequest = fake
      .requestsTo("POST", "/v1/refunds")
      .find((r) => r.body.payment_intent === created.json.payment_intent_id)!;
    expect(refundRequest.headers["idempotency-key"]).toBe(`duplicate-refund:${created.json.payment_intent_id}`);
    // Paying the inquiry's step again sends the buyer to the success page, not to a new checkout.
    const again = await postForm(app, `/payment/${domain.short}`, { intent: "checkout", inquiry: inquiry.public_id });
    expect(again.headers.get("location")).toBe(`/payment/${domain.short}?inquiry=${inquiry.public_id}`);
  });
});
