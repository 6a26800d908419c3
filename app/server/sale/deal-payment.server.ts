// The one way a deal becomes paid (as fulfil.server.ts for fees): the buyer's return from checkout, the
// Stripe webhook and the reconciler's pass all end here. It asks the provider, checks status, amount,
// currency and domain, then in one transaction moves the deal to 'paid' and the name to 'sold'. The
// conditional UPDATE counts a payment once; the unique index on live deals and the conditional UPDATE
// of the domain let a name sell once: a payment that comes second is refunded ('lost').
import type { Deal } from "../../../db/schema";
import { now, nowIso } from "../runtime/clock.server";
import { db } from "../db/database.server";
import { inTransaction, isUniqueViolation } from "../db/dialect.server";
import { env } from "../runtime/env.server";
import { log } from "../runtime/log.server";
import { getPaymentProvider, type ProviderName } from "../payments/index.server";
import { siteOrigin } from "../payments/flow.server";
import { PaymentNotFoundError, type PaymentProvider, type PaymentState } from "../payments/provider.server";
import { recordStrayPayment, refundStrayPayment } from "../payments/stray-payments.server";
import { dealPagePath, findDealByPublicId } from "./deals.server";
import { queueDealPaidEmails, queueLostEmail } from "./deal-mail.server";
import { expireUnpaidDeals, notifyLateTransfers } from "./deal-steps.server";

const DAY_MS = 24 * 60 * 60 * 1000;

export type DealPaymentResult =
  | { ok: true; deal: Deal; newlyPaid: boolean }
  | { ok: false; reason: "not_found" | "not_succeeded" | "unknown_deal" | "mismatch" | "lost"; message: string };

export const LOST_TEXT =
  "This name was sold to another buyer just before your payment. Your payment is being refunded in full.";

class NameTaken extends Error {}

/** Asks the provider about a checkout or payment and fulfils the deal it is for. */
export async function fulfilDealCheckout(provider: PaymentProvider, checkoutId: string): Promise<DealPaymentResult> {
  let state: PaymentState | null;
  try {
    state = await provider.retrieveCheckoutPayment(checkoutId);
  } catch (error) {
    if (error instanceof PaymentNotFoundError) return { ok: false, reason: "not_found", message: error.message };
    throw error;
  }
  if (!state) return { ok: false, reason: "not_succeeded", message: "The checkout has not been paid" };
  return fulfilDealPayment(provider, state);
}

/** What "Pay" leads to: the checkout's address, or nothing to pay because its earlier checkout was paid. */
export type DealCheckout = { url: string } | { recorded: true };

/**
 * The checkout for an agreed deal's amount due, or null when the deal is not agreed. A checkout still open
 * is reused (no second charge). One no longer open may have been paid with its return never come and no
 * webhook yet: that payment is recorded now (or, the name sold meanwhile, refunded) and no new checkout is
 * opened over it.
 */
export async function checkoutForDeal(deal: Deal, request: Request): Promise<DealCheckout | null> {
  if (deal.status !== "agreed") return null;
  const provider = getPaymentProvider(deal.provider as ProviderName);
  if (deal.checkout_id) {
    const open = await provider.retrieveCheckoutUrl(deal.checkout_id);
    if (open) return { url: open };
    const earlier = await fulfilDealCheckout(provider, deal.checkout_id);
    if (earlier.ok || earlier.reason === "lost") return { recorded: true };
  }
  const page = `${siteOrigin(request)}${dealPagePath("buyer", deal.public_id)}`;
  const checkout = await provider.createCheckout({
    purpose: "deal",
    reference: deal.public_id,
    domainName: deal.domain_name,
    amountCents: deal.amount_due_cents,
    currency: "usd",
    idempotencyKey: `deal-checkout:${deal.public_id}:${deal.checkout_id ?? "first"}`,
    // Concatenated, not URLSearchParams: the provider must see the literal {CHECKOUT_SESSION_ID}.
    successUrl: `${page}&session_id={CHECKOUT_SESSION_ID}`,
    cancelUrl: page,
    buyerEmail: deal.buyer_email,
  });
  await db
    .updateTable("deals")
    .set({ checkout_id: checkout.checkoutId, updated_at: nowIso() })
    .where("id", "=", deal.id)
    .execute();
  return { url: checkout.url };
}

/** Fulfils the deal a payment the provider reported (purpose "deal") is for. */
export async function fulfilDealPayment(provider: PaymentProvider, state: PaymentState): Promise<DealPaymentResult> {
  const deal = state.purpose === "deal" && state.reference ? await findDealByPublicId(state.reference) : null;
  // With Stripe configured, a payment made through the test provider (no money moved) completes nothing.
  if (!deal || deal.provider !== provider.name || (provider.name === "test" && env.payments !== "test")) {
    log.info({ paymentId: state.paymentId }, "payment for an unknown deal");
    return { ok: false, reason: "unknown_deal", message: "No deal belongs to this payment" };
  }
  if (state.status !== "succeeded") {
    if (deal.payment_id === state.paymentId && deal.status !== "checkout") return { ok: true, deal, newlyPaid: false };
    return { ok: false, reason: "not_succeeded", message: state.lastError ?? "The payment has not succeeded" };
  }
  if (
    state.amountCents !== deal.amount_due_cents ||
    state.currency !== deal.currency ||
    state.domainName !== deal.domain_name
  ) {
    const message = `Payment ${state.paymentId} does not match the deal (amount ${state.amountCents} ${state.currency})`;
    await db.updateTable("deals").set({ last_error: message }).where("id", "=", deal.id).execute();
    await returnPayment(provider, state, "mismatch");
    return { ok: false, reason: "mismatch", message };
  }

  let outcome: "paid" | "already" | "duplicate" | "lost";
  try {
    outcome = await inTransaction(async (trx) => {
      const at = nowIso();
      const paid = await trx
        .updateTable("deals")
        .set({
          status: "paid",
          payment_id: state.paymentId,
          paid_at: at,
          transfer_due_at: new Date(now().getTime() + env.TRANSFER_DAYS * DAY_MS).toISOString(),
          last_error: null,
          updated_at: at,
        })
        .where("id", "=", deal.id)
        .where("status", "in", ["checkout", "agreed"])
        .returningAll()
        .executeTakeFirst();
      if (!paid) {
        // Read again here: the deal read above is from before a concurrent fulfilment of the same payment
        // (the webhook and the buyer's return at once) that this UPDATE waited for and found paid.
        const current = await trx
          .selectFrom("deals")
          .select("payment_id")
          .where("id", "=", deal.id)
          .executeTakeFirstOrThrow();
        return current.payment_id === state.paymentId ? "already" : "duplicate";
      }
      const sold = await trx
        .updateTable("domains")
        .set({ sale_state: "sold", sold_at: at, deleted_at: at, updated_at: at })
        .where("id", "=", deal.domain_id)
        // Still listed: a name delisted meanwhile is not sold. (Another live deal fails the unique index above.)
        .where("deleted_at", "is", null)
        .executeTakeFirst();
      if (sold.numUpdatedRows !== 1n) throw new NameTaken();
      await queueDealPaidEmails(paid, trx);
      return "paid";
    });
  } catch (error) {
    if (!(error instanceof NameTaken) && !isUniqueViolation(error)) throw error;
    outcome = "lost";
  }

  if (outcome === "lost") {
    // Recorded first: a crash after this still gets the money back (the reconciler retries stray refunds).
    await recordStrayPayment({
      paymentId: state.paymentId,
      inquiryId: null,
      provider: provider.name,
      reason: "duplicate",
      amountCents: state.amountCents,
    });
    const lost = await db
      .updateTable("deals")
      .set({ status: "lost", payment_id: state.paymentId, closed_at: nowIso(), updated_at: nowIso() })
      .where("id", "=", deal.id)
      .where("status", "in", ["checkout", "agreed"])
      .returningAll()
      .executeTakeFirst();
    if (lost) await inTransaction((trx) => queueLostEmail(lost, trx));
    await refundStrayPayment(state.paymentId);
    log.info({ dealId: deal.id, paymentId: state.paymentId }, "deal payment lost the race; refunded");
    return { ok: false, reason: "lost", message: LOST_TEXT };
  }
  // A second successful payment for a deal already paid (two checkouts): it goes back.
  if (outcome === "duplicate") await returnPayment(provider, state, "duplicate");
  if (outcome === "paid") log.info({ dealId: deal.id, paymentId: state.paymentId }, "deal paid");
  return { ok: true, deal: (await findDealByPublicId(deal.public_id))!, newlyPaid: outcome === "paid" };
}

/** Money that cannot count goes back, retried by the reconciler's stray pass until it does. */
async function returnPayment(provider: PaymentProvider, state: PaymentState, reason: "duplicate" | "mismatch") {
  await recordStrayPayment({
    paymentId: state.paymentId,
    inquiryId: null,
    provider: provider.name,
    reason,
    amountCents: state.amountCents,
  });
  await refundStrayPayment(state.paymentId);
}

/**
 * The reconciler's pass over deals. A buyer who paid and closed the tab before the return, with no webhook,
 * is still recorded: the checkouts of buy nows of the last day, and of every agreed deal not past its pay-by
 * date by more than a day (an offer's checkout may open days after the deal was agreed). They are asked
 * first; then agreed deals past their pay-by date expire, so a payment made just before it is not expired.
 */
export async function reconcileDealCheckouts(getProvider: (name: string) => PaymentProvider): Promise<number> {
  const since = new Date(now().getTime() - DAY_MS).toISOString();
  const open = await db
    .selectFrom("deals")
    .select(["checkout_id", "provider"])
    .where("checkout_id", "is not", null)
    .where((eb) =>
      eb.or([
        eb.and([eb("status", "=", "checkout"), eb("created_at", ">=", since)]),
        eb.and([eb("status", "=", "agreed"), eb("pay_by", ">=", since)]),
      ]),
    )
    .orderBy("id")
    .limit(50)
    .execute();
  let paid = 0;
  for (const row of open) {
    const result = await fulfilDealCheckout(getProvider(row.provider), row.checkout_id!);
    if (result.ok && result.newlyPaid) paid++;
  }
  await expireUnpaidDeals();
  await notifyLateTransfers();
  await expireStaleCheckouts(getProvider, since);
  return paid;
}

/** A buy now started over a day ago and never paid: asked one last time, then its checkout is closed. */
async function expireStaleCheckouts(getProvider: (name: string) => PaymentProvider, before: string): Promise<void> {
  const stale = await db
    .selectFrom("deals")
    .select(["id", "checkout_id", "provider"])
    .where("status", "=", "checkout")
    .where("created_at", "<", before)
    .orderBy("id")
    .limit(50)
    .execute();
  for (const row of stale) {
    const provider = getProvider(row.provider);
    if (row.checkout_id) {
      const result = await fulfilDealCheckout(provider, row.checkout_id);
      if (result.ok || result.reason === "lost") continue;
      await provider.expireCheckout(row.checkout_id);
    }
    const closedAt = nowIso();
    await db
      .updateTable("deals")
      .set({ status: "expired", closed_at: closedAt, updated_at: closedAt })
      .where("id", "=", row.id)
      .where("status", "=", "checkout")
      .execute();
  }
}
