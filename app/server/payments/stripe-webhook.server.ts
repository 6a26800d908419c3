// Stripe webhook events: verified by signature, each event id processed once, and every payment
// re-read from Stripe (so events arriving late or out of order act on the current state).
import type Stripe from "stripe";
import { nowIso } from "../runtime/clock.server";
import { db } from "../db/database.server";
import { env } from "../runtime/env.server";
import { fulfilPayment, type PaymentReference } from "./fulfil.server";
import { fulfilDealPayment } from "../sale/deal-payment.server";
import { getPaymentProvider, type PaymentProvider } from "./index.server";
import { getStripeClient } from "./stripe.server";
import { refundInquiry } from "../refunds/refunds.server";
import { findInquiryByPaymentId } from "../inquiries/inquiries.server";
import { followStrayRefund } from "./stray-payments.server";
import { countDecline } from "./card-testing.server";
import { log } from "../runtime/log.server";

export class WebhookSignatureError extends Error {}

export function webhooksConfigured(): boolean {
  return Boolean(env.STRIPE_SECRET_KEY && env.STRIPE_WEBHOOK_SECRET);
}

/** Verifies the signature over the raw body (default tolerance: 5 minutes, so stale replays fail). */
export function verifyStripeEvent(rawBody: string, signature: string): Stripe.Event {
  try {
    return getStripeClient().webhooks.constructEvent(rawBody, signature, env.STRIPE_WEBHOOK_SECRET!);
  } catch (error) {
    throw new WebhookSignatureError((error as Error).message);
  }
}

async function followRefundsOf(paymentId: string): Promise<string> {
  const inquiry = await findInquiryByPaymentId(paymentId);
  if (inquiry?.refund_state === "pending") return (await refundInquiry(inquiry.id)).status;
  const stray = await followStrayRefund(paymentId);
  return stray ?? "ignored";
}

/** An inquiry's fee or a deal's price: the payment says which. */
async function fulfil(provider: PaymentProvider, reference: PaymentReference): Promise<string> {
  const result = await fulfilPayment(provider, reference);
  if (!result.ok && result.reason === "deal" && result.state) {
    const deal = await fulfilDealPayment(provider, result.state);
    return deal.ok ? "deal fulfilled" : `deal ${deal.reason}`;
  }
  return result.ok ? "fulfilled" : result.reason;
}

/** Returns false for an event already handled. Throws when Stripe cannot be reached (Stripe retries). */
export async function handleStripeEvent(event: Stripe.Event): Promise<boolean> {
  if (await db.selectFrom("processed_events").select("id").where("id", "=", event.id).executeTakeFirst()) return false;
  const provider = getPaymentProvider("stripe");
  let outcome: string = "ignored";
  switch (event.type) {
    case "payment_intent.succeeded": {
      outcome = await fulfil(provider, { paymentId: event.data.object.id });
      break;
    }
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded": {
      outcome = await fulfil(provider, { checkoutId: event.data.object.id });
      break;
    }
    case "payment_intent.payment_failed": {
      await countDecline(event.data.object.metadata?.inquiry_id);
      outcome = "decline counted";
      break;
    }
    // A refund that was pending finished (or failed): the refund's state is asked of Stripe, not taken from the event.
    case "refund.updated":
    case "refund.failed":
    case "charge.refunded": {
      const intent = event.data.object.payment_intent;
      const paymentId = typeof intent === "string" ? intent : intent?.id;
      if (paymentId) outcome = await followRefundsOf(paymentId);
      break;
    }
  }
  await db
    .insertInto("processed_events")
    .values({ id: event.id, type: event.type, processed_at: nowIso() })
    .onConflict((oc) => oc.doNothing())
    .execute();
  log.info({ id: event.id, type: event.type, outcome }, "stripe event");
  return true;
}
