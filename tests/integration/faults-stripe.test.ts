import Database from "better-sqlite3";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeDataDir, startAppServer, type AppServer } from "../support/app-server";
import { insertDomain, uniqueDomainName } from "../support/data";
import { startFakeStripe, stripeEvent, type FakeStripe } from "../support/fake-stripe";
import { BUYER, postForm, postJson, request, waitFor } from "../support/http";

// Faults around card payments, with the real stripe SDK against the fake Stripe and real server
// processes: a buyer who never comes back, a server killed with SIGKILL between payment and confirm,
// and a Stripe that stops answering. What must hold: a succeeded payment is recorded exactly once
// (inquiry paid, inquiry_count +1, one owner email) and nothing is recorded for a payment that did not happen.
const WEBHOOK_SECRET = "whsec_test_secret_for_faults";
const stripeForSigning = new Stripe("sk_test_fake");
const STRIPE_TIMEOUT_MS = 500;
let fake: FakeStripe;
let app: AppServer;
const figures = { tried: 0, survived: 0, rowsLost: 0 };

function stripeEnv(): Record<string, string> {
  return {
    STRIPE_SECRET_KEY: "sk_test_fake",
    STRIPE_PUBLISHABLE_KEY: "pk_test_fake",
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: fake.url,
    STRIPE_TIMEOUT_MS: String(STRIPE_TIMEOUT_MS),
    MAIL_RETRY_BASE_MS: "50",
  };
}

beforeAll(async () => {
  fake = await startFakeStripe();
  app = await startAppServer({ env: stripeEnv() });
});
afterAll(async () => {
  await app?.stop();
  if (app) removeDataDir(app);
  await fake?.stop();
  console.log(`faults (stripe): ${figures.tried} tried, ${figures.survived} survived, rows lost ${figures.rowsLost}`);
});

function newDomain(server: AppServer = app) {
  const name = uniqueDomainName("fault");
  const id = insertDomain(server.db(), { name, priceCents: 900_000, ownerEmail: "owner@example.test" });
  return { id, name, short: name.replace(/\.com$/, "") };
}

/** What a user (buyer or owner) would notice about one domain's inquiries. */
function recorded(server: AppServer, domainId: number) {
  const db = server.db();
  const count = (db.prepare("SELECT inquiry_count AS n FROM domains WHERE id = ?").get(domainId) as { n: number }).n;
  const paid = db.prepare("SELECT id FROM inquiries WHERE domain_id = ? AND status = 'paid'").all(domainId) as {
    id: number;
  }[];
  const ownerEmails = (
    db
      .prepare(
        "SELECT count(*) AS n FROM outbox o JOIN inquiries i ON i.id = o.inquiry_id WHERE i.domain_id = ? AND o.kind = 'owner_inquiry'",
      )
      .get(domainId) as { n: number }
  ).n;
  return { count, paid: paid.length, ownerEmails };
}

function sendWebhook(server: AppServer, event: Record<string, any>) {
  const payload = JSON.stringify(event);
  const header = stripeForSigning.webhooks.generateTestHeaderString({
    payload,
    secret: WEBHOOK_SECRET,
    timestamp: Math.floor(Date.now() / 1000),
  });
  return request(server, "/webhooks/stripe", {
    method: "POST",
    headers: { "Content-Type": "application/json", "Stripe-Signature": header },
    body: payload,
  });
}

/** One fault case's verdict: the paid inquiry recorded exactly once (a missing one counts as a lost row). */
function expectPaidOnce(server: AppServer, domainId: number): void {
  figures.tried += 1;
  const state = recorded(server, domainId);
  if (state.paid === 0) figures.rowsLost += 1;
  expect(state).toEqual({ count: 1, paid: 1, ownerEmails: 1 });
  figures.survived += 1;
}

describe("the browser closes right after paying", () => {
  it("JavaScript path: the signed payment_intent.succeeded webhook alone fulfils it, once", async () => {
    const domain = newDomain();
    const created = await postJson(app, "/api/create-payment-intent", {
      domain_name: domain.short,
      customer_info: BUYER,
    });
    expect(created.status).toBe(200);
    // Stripe.js confirms the card; the tab is closed before /api/confirm-payment or the return page.
    fake.confirm(created.json.payment_intent_id);
    expect(recorded(app, domain.id)).toEqual({ count: 0, paid: 0, ownerEmails: 0 });

    const event = stripeEvent("payment_intent.succeeded", fake.paymentIntents.get(created.json.payment_intent_id)!);
    const first = await sendWebhook(app, event);
    expect(first.status).toBe(200);
    expect(JSON.parse(first.body)).toEqual({ received: true, duplicate: false });
    // Stripe delivers again (it did not see our 200 in time); nothing changes.
    const again = await Promise.all([sendWebhook(app, event), sendWebhook(app, event)]);
    expect(again.map((reply) => [reply.status, JSON.parse(reply.body).duplicate])).toEqual([
      [200, true],
      [200, true],
    ]);

    expectPaidOnce(app, domain.id);
    const inquiry = app
      .db()
      .prepare("SELECT id, status, payment_intent_id FROM inquiries WHERE domain_id = ?")
      .get(domain.id) as any;
    expect(inquiry).toMatchObject({ status: "paid", payment_intent_id: created.json.payment_intent_id });
    // The owner's email really goes out (no SMTP_URL: written to data/mail), once.
    await waitFor(
      () =>
        (
          app
            .db()
            .prepare("SELECT sent_at FROM outbox WHERE inquiry_id = ? AND kind = 'owner_inquiry'")
            .get(inquiry.id) as any
        )?.sent_at,
      15_000,
      "owner email sent",
    );
    // Coming back days later shows the success page and records nothing more.
    expect((await request(app, created.json.redirect)).body).toContain("Payment Successful!");
    expect(recorded(app, domain.id)).toEqual({ count: 1, paid: 1, ownerEmails: 1 });
  });

  it("Checkout (no JavaScript): checkout.session.completed alone fulfils it, once", async () => {
    const domain = newDomain();
    const started = await postForm(app, `/payment/${domain.short}`, { intent: "inquiry", ...BUYER });
    expect(started.status).toBe(303);
    const sessionId = new URL(started.headers.get("location")!).pathname.split("/").pop()!;
    // The buyer pays on Stripe's page but never follows the redirect back.
    fake.completeCheckout(sessionId);
    const event = stripeEvent("checkout.session.completed", fake.sessions.get(sessionId)!);
    for (let delivery = 0; delivery < 3; delivery++) expect((await sendWebhook(app, event)).status).toBe(200);
    expectPaidOnce(app, domain.id);
  });
});

describe("SIGKILL between payment and confirm", () => {
  it("after a restart on the same data folder, confirm + return + webhook + reconcile record each payment once", async () => {
    const server = await startAppServer({ env: stripeEnv() });
    let restarted: AppServer | undefined;
    try {
      // Buyer 1 (JavaScript): the payment succeeded at Stripe; the confirm call never got through.
      const jsDomain = newDomain(server);
      const created = await postJson(server, "/api/create-payment-intent", {
        domain_name: jsDomain.short,
        customer_info: BUYER,
      });
      expect(created.status).toBe(200);
      const intentId = created.json.payment_intent_id as string;
      fake.confirm(intentId);
      // Buyer 2 (no JavaScript): paid on Checkout; the success return never got through.
      const checkoutDomain = newDomain(server);
      const started = await postForm(server, `/payment/${checkoutDomain.short}`, { intent: "inquiry", ...BUYER });
      const sessionId = new URL(started.headers.get("location")!).pathname.split("/").pop()!;
      const { successUrl } = fake.completeCheckout(sessionId);

      expect(await server.stop("SIGKILL")).toBe(null);
      // The database file is intact after the kill, before anything reopens it.
      const raw = new Database(server.dbPath);
      try {
        expect(raw.pragma("integrity_check", { simple: true })).toBe("ok");
      } finally {
        raw.close();
      }

      restarted = await startAppServer({ env: stripeEnv(), dataDir: server.dataDir });
      const app2 = restarted;
      const successPath = new URL(successUrl).pathname + new URL(successUrl).search;
      const jsReturn = created.json.redirect as string;
      const intentEvent = stripeEvent("payment_intent.succeeded", fake.paymentIntents.get(intentId)!);
      const sessionEvent = stripeEvent("checkout.session.completed", fake.sessions.get(sessionId)!);
      // Everything arrives at once: the buyer's retried confirm and return, the page's reconcile, Stripe's webhooks.
      const replies = await Promise.all([
        postJson(app2, "/api/confirm-payment", { payment_intent_id: intentId, domain_name: jsDomain.short }),
        postJson(app2, "/api/confirm-payment", { payment_intent_id: intentId, domain_name: jsDomain.short }),
        request(app2, jsReturn),
        sendWebhook(app2, intentEvent),
        sendWebhook(app2, intentEvent),
        request(app2, successPath),
        request(app2, successPath),
        sendWebhook(app2, sessionEvent),
        sendWebhook(app2, sessionEvent),
      ]);
      expect(replies[0]!.json).toMatchObject({ ok: true });
      expect(replies[1]!.json).toMatchObject({ ok: true });
      for (const page of [replies[2], replies[5], replies[6]] as { body: string }[])
        expect(page.body).toContain("Payment Successful!");
      for (const hook of [replies[3], replies[4], replies[7], replies[8]] as { status: number }[])
        expect(hook.status).toBe(200);

      expectPaidOnce(app2, jsDomain.id);
      expectPaidOnce(app2, checkoutDomain.id);
      expect(app2.db().pragma("integrity_check", { simple: true })).toBe("ok");
    } finally {
      await server.stop();
      await restarted?.stop();
      removeDataDir(server);
    }
  });
});

describe("Stripe stops answering (slower than STRIPE_TIMEOUT_MS)", () => {
  it("creating the payment: the buyer gets a clear error, nothing is paid, a later retry pays once", async () => {
    const domain = newDomain();
    fake.delayNext({ method: "POST", path: "/v1/payment_intents", ms: 4 * STRIPE_TIMEOUT_MS, times: 10 });
    let failed;
    try {
      failed = await postJson(app, "/api/create-payment-intent", { domain_name: domain.short, customer_info: BUYER });
    } finally {
      fake.clearDelays();
    }
    expect(failed.status).toBe(502);
    expect(failed.json).toEqual({ error: "Failed to create payment intent" });
    expect(recorded(app, domain.id)).toEqual({ count: 0, paid: 0, ownerEmails: 0 });

    const retry = await postJson(app, "/api/create-payment-intent", {
      domain_name: domain.short,
      customer_info: BUYER,
    });
    expect(retry.status).toBe(200);
    fake.confirm(retry.json.payment_intent_id);
    const confirmed = await postJson(app, "/api/confirm-payment", {
      payment_intent_id: retry.json.payment_intent_id,
      domain_name: domain.short,
    });
    expect(confirmed.json).toMatchObject({ ok: true });
    expectPaidOnce(app, domain.id);
  });

  it("confirming: 'Payment processing failed', not paid; the retry records it once", async () => {
    const domain = newDomain();
    const created = await postJson(app, "/api/create-payment-intent", {
      domain_name: domain.short,
      customer_info: BUYER,
    });
    const intentId = created.json.payment_intent_id as string;
    fake.confirm(intentId);
    fake.delayNext({ method: "GET", path: `/v1/payment_intents/${intentId}`, ms: 4 * STRIPE_TIMEOUT_MS, times: 10 });
    let failed;
    try {
      failed = await postJson(app, "/api/confirm-payment", { payment_intent_id: intentId, domain_name: domain.short });
    } finally {
      fake.clearDelays();
    }
    expect(failed).toMatchObject({ status: 502, json: { error: "Payment processing failed" } });
    expect(recorded(app, domain.id)).toEqual({ count: 0, paid: 0, ownerEmails: 0 });
    // The stalled call was retried by the SDK (maxNetworkRetries) before giving up.
    expect(fake.requestsTo("GET", `/v1/payment_intents/${intentId}`).length).toBeGreaterThanOrEqual(2);

    const retries = await Promise.all(
      [1, 2].map(() =>
        postJson(app, "/api/confirm-payment", { payment_intent_id: intentId, domain_name: domain.short }),
      ),
    );
    for (const retry of retries) expect(retry.json).toMatchObject({ ok: true });
    expectPaidOnce(app, domain.id);
  });

  it("no JavaScript: the checkout cannot be opened -> 'Failed to initialize payment'; trying again pays once", async () => {
    const domain = newDomain();
    fake.delayNext({ method: "POST", path: "/v1/checkout/sessions", ms: 4 * STRIPE_TIMEOUT_MS, times: 10 });
    let started;
    try {
      started = await postForm(app, `/payment/${domain.short}`, { intent: "inquiry", ...BUYER });
    } finally {
      fake.clearDelays();
    }
    expect(started.status).toBe(303);
    const back = started.headers.get("location")!;
    expect(back).toMatch(/&failed=1$/);
    const page = await request(app, back);
    expect(page.body).toContain("Failed to initialize payment");
    expect(recorded(app, domain.id)).toEqual({ count: 0, paid: 0, ownerEmails: 0 });

    const inquiryId = new URL(back, app.url).searchParams.get("inquiry")!;
    const retry = await postForm(app, `/payment/${domain.short}`, { intent: "checkout", inquiry: inquiryId });
    expect(retry.headers.get("location")).toMatch(/\/pay\/cs_test_/);
    const paid = await request(app, retry.headers.get("location")!);
    const successUrl = new URL(paid.headers.get("location")!);
    expect((await request(app, successUrl.pathname + successUrl.search)).body).toContain("Payment Successful!");
    expectPaidOnce(app, domain.id);
  });
});
