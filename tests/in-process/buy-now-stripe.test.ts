import Stripe from "stripe";
import { afterAll, describe, expect, it, vi } from "vitest";

// Buy now with the real stripe SDK against the Stripe-compatible test server: Stripe Checkout, the
// webhook (signed) and the reconciler each record the payment, once.
const { fake, WEBHOOK_SECRET } = await vi.hoisted(async () => {
  const { startStripeForApp } = await import("../support/in-process/stripe");
  const WEBHOOK_SECRET = "whsec_deal_test";
  const fake = await startStripeForApp({
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    MAX_PAYMENTS_PER_ADDRESS_PER_HOUR: "1000",
  });
  return { fake, WEBHOOK_SECRET };
});

import { db } from "../../app/server/db/database.server";
import { runReconcilePass } from "../../app/server/payments/reconciler.server";
import { dealPagePath, findDealByPublicId } from "../../app/server/sale/deals.server";
import { BUYER, createAdmin, createDomain } from "../support/factories";
import { render } from "../support/in-process/document";
import { waitFor } from "../support/wait";

afterAll(async () => {
  await fake.stop();
});

const signer = new Stripe("sk_test_fake");
async function sendWebhook(event: Record<string, unknown>) {
  const payload = JSON.stringify(event);
  const header = signer.webhooks.generateTestHeaderString({
    payload,
    secret: WEBHOOK_SECRET,
    timestamp: Math.floor(Date.now() / 1000),
  });
  return render("/webhooks/stripe", {
    body: payload,
    headers: { "Content-Type": "application/json", "Stripe-Signature": header },
    origin: null,
  });
}

async function startBuyNow() {
  const domain = await createDomain({ prefix: "stripebuy", priceCents: 900_000, buyNowCents: 800_000 });
  const started = await render(`/buy/${domain.short}`, { form: { name: BUYER.name, email: BUYER.email } });
  expect(started.status).toBe(303);
  const [deal] = await db.selectFrom("deals").selectAll().where("domain_id", "=", domain.id).execute();
  expect(started.location).toContain(deal!.checkout_id!);
  return { domain, deal: deal! };
}

const events = { n: 0 };
const checkoutCompleted = (sessionId: string) => ({
  id: `evt_deal_${++events.n}`,
  type: "checkout.session.completed",
  data: { object: { id: sessionId } },
});

describe("buy now through Stripe Checkout", () => {
  it("the webhook records the payment once and sells the name; the return then shows it paid", async () => {
    const { domain, deal } = await startBuyNow();
    const session = fake.sessions.get(deal.checkout_id!)!;
    expect(session.metadata).toMatchObject({ deal_id: deal.public_id, domain: domain.domain_name });
    expect(Number(session.line_items["0"].price_data.unit_amount)).toBe(800_000);
    const { successUrl } = fake.completeCheckout(deal.checkout_id!);

    const answers = await Promise.all([
      sendWebhook(checkoutCompleted(deal.checkout_id!)),
      sendWebhook(checkoutCompleted(deal.checkout_id!)),
    ]);
    for (const answer of answers) expect(answer.status).toBe(200);
    const paid = await findDealByPublicId(deal.public_id);
    expect(paid).toMatchObject({ status: "paid" });
    expect(paid!.payment_id).toBeTruthy();
    const domainRow = await db.selectFrom("domains").selectAll().where("id", "=", domain.id).executeTakeFirstOrThrow();
    expect(domainRow.sale_state).toBe("sold");

    const back = new URL(successUrl);
    const returned = await render(back.pathname + back.search);
    expect(returned.status).toBe(303);
    expect((await render(returned.location!)).body).toContain("Paid: waiting for the transfer details");
    // No money went back.
    expect([...fake.refunds.values()].filter((refund) => refund.payment_intent === paid!.payment_id)).toHaveLength(0);
  });

  it("a buyer who closed the tab, with no webhook, is recorded by the reconciler", async () => {
    const { deal } = await startBuyNow();
    fake.completeCheckout(deal.checkout_id!);
    expect((await findDealByPublicId(deal.public_id))!.status).toBe("checkout");
    await runReconcilePass();
    expect((await findDealByPublicId(deal.public_id))!.status).toBe("paid");
  });
  it("a refund the buyer's confirmation overtakes is reported to the admin, not passed over as done", async () => {
    const { deal } = await startBuyNow();
    fake.completeCheckout(deal.checkout_id!);
    expect((await sendWebhook(checkoutCompleted(deal.checkout_id!))).status).toBe(200);
    const paymentId = (await findDealByPublicId(deal.public_id))!.payment_id!;
    const sent = await render(dealPagePath("owner", deal.public_id), {
      form: { intent: "send-transfer", authCode: "CODE-RACE", transferNote: "" },
    });
    expect(sent.status).toBe(303);

    // The admin refunds; Stripe takes its time to answer, and the buyer confirms receipt meanwhile.
    const admin = await createAdmin();
    fake.delayNext({ method: "POST", path: "/v1/refunds", ms: 500 });
    const refunding = render("/admin/deals", {
      cookie: admin.cookie,
      form: { intent: "refund-deal", deal: deal.public_id },
    });
    const refundAsked = () => [...fake.refunds.values()].some((refund) => refund.payment_intent === paymentId);
    await waitFor(refundAsked, 5_000, "the refund to reach Stripe", 10);
    const confirmed = await render(dealPagePath("buyer", deal.public_id), { form: { intent: "received" } });
    expect(confirmed.status).toBe(303);

    const answer = await refunding;
    expect(answer.status).toBe(409);
    expect(answer.body).toContain("the buyer confirmed receipt of the name while it was being refunded");
    const after = await findDealByPublicId(deal.public_id);
    expect(after).toMatchObject({ status: "completed" });
    expect(after!.last_error).toContain("Settle it with the buyer before paying the owner.");
  });
});
