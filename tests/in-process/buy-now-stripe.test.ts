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
import { MINUTE_MS, useTestClock } from "../support/in-process/clock";
import { render } from "../support/in-process/document";
import { waitFor } from "../support/wait";

afterAll(async () => {
  await fake.stop();
});
const clock = useTestClock();

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

  /** A deal bought now through Checkout, paid, with the transfer details sent: the Refund deal case. */
  async function transferredDeal() {
    const { domain, deal } = await startBuyNow();
    fake.completeCheckout(deal.checkout_id!);
    expect((await sendWebhook(checkoutCompleted(deal.checkout_id!))).status).toBe(200);
    const sent = await render(dealPagePath("owner", deal.public_id), {
      form: { intent: "send-transfer", authCode: "CODE-REFUND", transferNote: "" },
    });
    expect(sent.status).toBe(303);
    const paymentId = (await findDealByPublicId(deal.public_id))!.payment_id!;
    const refundsOf = () => [...fake.refunds.values()].filter((refund) => refund.payment_intent === paymentId);
    return { domain, deal, refundsOf };
  }
  const refundDeal = async (publicId: string) =>
    render("/admin/deals", { cookie: (await createAdmin()).cookie, form: { intent: "refund-deal", deal: publicId } });
  const confirmReceipt = (publicId: string) =>
    render(dealPagePath("buyer", publicId), { form: { intent: "received" } });

  it("while the provider refunds, the buyer cannot confirm receipt; the refund then closes the deal", async () => {
    const { domain, deal, refundsOf } = await transferredDeal();
    // Long enough for the two requests below on a loaded machine: the test waits for it only once.
    fake.delayNext({ method: "POST", path: "/v1/refunds", ms: 2_000 });
    const refunding = refundDeal(deal.public_id);
    await waitFor(() => refundsOf().length > 0, 5_000, "the refund to reach Stripe", 10);
    expect((await findDealByPublicId(deal.public_id))!.status).toBe("refunding");
    const confirmed = await confirmReceipt(deal.public_id);
    expect(confirmed.status).toBe(409);
    expect(confirmed.body).toContain("This sale is being refunded.");
    // A second Refund deal meanwhile is told, and asks Stripe nothing.
    const twice = await refundDeal(deal.public_id);
    expect(twice.status).toBe(409);
    expect(twice.body).toContain("This deal is already being refunded.");

    expect((await refunding).status).toBe(303);
    expect(await findDealByPublicId(deal.public_id)).toMatchObject({ status: "refunded" });
    expect(refundsOf()).toHaveLength(1);
    expect((await render(`/domain/${domain.short}`)).status).toBe(200);
  });

  it("a refund Stripe refuses puts the deal back as it was, and the buyer can still confirm", async () => {
    const { deal, refundsOf } = await transferredDeal();
    fake.nextRefundStatus("failed");
    const refused = await refundDeal(deal.public_id);
    expect(refused.status).toBe(409);
    expect(refused.body).toContain("The refund failed: expired_or_canceled_card.");
    expect(refundsOf()).toHaveLength(1);
    expect(await findDealByPublicId(deal.public_id)).toMatchObject({ status: "transferred" });
    expect((await confirmReceipt(deal.public_id)).status).toBe(303);
    expect(await findDealByPublicId(deal.public_id)).toMatchObject({ status: "completed" });
  });

  it("after a refused refund the admin can refund the deal again at once", async () => {
    const { deal, refundsOf } = await transferredDeal();
    fake.nextRefundStatus("failed");
    expect((await refundDeal(deal.public_id)).status).toBe(409);
    // Stripe answers a key's first request again for 24 hours: the next try has a key of its own.
    clock.advance(MINUTE_MS);
    const again = await refundDeal(deal.public_id);
    expect(again.status).toBe(303);
    expect(refundsOf().map((refund) => refund.status)).toEqual(["failed", "succeeded"]);
    expect(await findDealByPublicId(deal.public_id)).toMatchObject({ status: "refunded" });
  });

  it("a refund a stopped process left under way is finished by the reconciler, once", async () => {
    const { deal, refundsOf } = await transferredDeal();
    const admin = (await createAdmin()).cookie;
    // Transferred, the buyer can confirm and the admin can refund (what a claim takes away, below).
    expect((await render(dealPagePath("buyer", deal.public_id))).body).toContain('value="received"');
    expect((await render("/admin/deals", { cookie: admin })).body).toContain(`value="${deal.public_id}"`);
    // What a process that stopped right after claiming the deal leaves: 'refunding', Stripe never asked.
    await db.updateTable("deals").set({ status: "refunding" }).where("public_id", "=", deal.public_id).execute();
    await runReconcilePass();
    expect(await findDealByPublicId(deal.public_id)).toMatchObject({ status: "refunding" });
    expect(refundsOf()).toHaveLength(0);
    // Meanwhile the buyer's page and the admin's deals say so, and offer neither the confirmation nor a refund.
    const buyerPage = await render(dealPagePath("buyer", deal.public_id));
    expect(buyerPage.body).toContain("Being refunded");
    expect(buyerPage.body).not.toContain('value="received"');
    const adminDeals = await render("/admin/deals", { cookie: admin });
    expect(adminDeals.body).toContain("Being refunded");
    expect(adminDeals.body).not.toContain(`value="${deal.public_id}"`);
    clock.advance(6 * MINUTE_MS);
    await runReconcilePass();
    expect(await findDealByPublicId(deal.public_id)).toMatchObject({ status: "refunded" });
    await runReconcilePass();
    expect(refundsOf()).toHaveLength(1);
  });
});
