// The payment flow's steps, shared by the /payment page (forms, no JavaScript) and the JSON routes
// (JavaScript). The amount is always the server's current fee, fixed on the inquiry when it is created.
import type { Domain, Inquiry } from "../../../db/schema";
import { shortDomainName } from "../../lib/domain-name";
import { BUSY_MESSAGE, isDatabaseBusy, sqlite } from "../db/database.server";
import { env } from "../runtime/env.server";
import { offerFloorWarning } from "../catalog/offer-floor.server";
import { clientIp } from "../http/rate-limit.server";
import { getInquiryFeeCents } from "../catalog/settings.server";
import { fulfilFreeInquiry, fulfilPayment, type FulfilResult } from "./fulfil.server";
import { mayCreatePayment, PAYMENTS_PAUSED_TEXT, throttledAsk } from "./card-testing.server";
import { getPaymentProvider } from "./index.server";
import {
  attachCheckout,
  attachPayment,
  createInquiry,
  findInquiryByPublicId,
  freeInquiryRateLimit,
  inquiryRateLimit,
  TOO_MANY_INQUIRIES_MESSAGE,
  validateInquiry,
  type InquiryField,
} from "./inquiries.server";
import type { ProviderName } from "./provider.server";

export type StartResult =
  | { kind: "invalid"; status: 400 | 409 | 429 | 503; message: string; fieldErrors: Partial<Record<InquiryField, string>>; belowMinimum?: boolean }
  | { kind: "free"; inquiry: Inquiry }
  | { kind: "created"; inquiry: Inquiry };

/** Validates the buyer's form and records a pending inquiry (or a fulfilled one when the fee is 0). */
export async function startInquiry(request: Request, domain: Domain, raw: Record<string, unknown>): Promise<StartResult> {
  const validation = validateInquiry(raw);
  if (!validation.ok) return { kind: "invalid", status: 400, message: validation.message, fieldErrors: validation.fieldErrors };
  // Counted before the offer is compared with the owner's private minimum: were the limit checked
  // after, 409 (below) against 429 (limited) would reveal the minimum to a binary search without end.
  const ip = clientIp(request);
  const feeCents = await getInquiryFeeCents();
  const limit = feeCents === 0 ? freeInquiryRateLimit : inquiryRateLimit;
  if (!limit.hit(`inquiry:${ip}`)) return { kind: "invalid", status: 429, message: TOO_MANY_INQUIRIES_MESSAGE, fieldErrors: {} };
  // An offer below the owner's private minimum: warn before anything is created or charged (409 = confirm first).
  const floorWarning = offerFloorWarning(domain, validation.input.offer, raw);
  if (floorWarning) return { kind: "invalid", status: 409, message: floorWarning, fieldErrors: {}, belowMinimum: true };
  const provider: ProviderName | "free" = feeCents === 0 ? "free" : getPaymentProvider().name;
  if (!mayCreatePayment(request, provider)) return { kind: "invalid", status: 429, message: PAYMENTS_PAUSED_TEXT, fieldErrors: {} };
  try {
    // One transaction: a free inquiry is stored fulfilled or not at all.
    return sqlite.transaction((): StartResult => {
      const inquiry = createInquiry({ domain, input: validation.input, amountCents: feeCents, provider, clientIp: ip });
      if (feeCents === 0) return { kind: "free", inquiry: fulfilFreeInquiry(inquiry) };
      return { kind: "created", inquiry };
    }).immediate();
  } catch (error) {
    // Another writer held the database past busy_timeout: nothing was stored (each write is atomic).
    if (!isDatabaseBusy(error)) throw error;
    console.error(JSON.stringify({ msg: "database busy: inquiry refused", domain: domain.domain_name }));
    return { kind: "invalid", status: 503, message: BUSY_MESSAGE, fieldErrors: {} };
  }
}

function providerFor(inquiry: Inquiry) {
  return getPaymentProvider(inquiry.provider as ProviderName);
}

/** JavaScript path: one payment per inquiry (the idempotency key is the inquiry's). */
export async function createPaymentForInquiry(inquiry: Inquiry): Promise<{ paymentId: string; clientSecret: string }> {
  const payment = await providerFor(inquiry).createPayment({
    inquiryPublicId: inquiry.public_id,
    domainName: inquiry.domain_name,
    amountCents: inquiry.amount_cents,
    currency: "usd",
    idempotencyKey: `payment:${inquiry.public_id}`,
  });
  attachPayment(inquiry, payment.paymentId);
  return payment;
}

export function siteOrigin(request: Request): string {
  return env.PUBLIC_URL ? new URL(env.PUBLIC_URL).origin : new URL(request.url).origin;
}

export function paymentPagePath(inquiry: Pick<Inquiry, "domain_name" | "public_id">): string {
  return `/payment/${encodeURIComponent(shortDomainName(inquiry.domain_name))}?inquiry=${inquiry.public_id}`;
}

/**
 * No-JavaScript path: the hosted checkout page's address. A still-open checkout is reused, and the
 * idempotency key follows the previous checkout, so a double submit never opens two.
 */
export async function checkoutUrlForInquiry(request: Request, inquiry: Inquiry): Promise<string> {
  const provider = providerFor(inquiry);
  if (inquiry.checkout_session_id) {
    const url = await provider.retrieveCheckoutUrl(inquiry.checkout_session_id);
    if (url) return url;
  }
  const back = `${siteOrigin(request)}${paymentPagePath(inquiry)}`;
  const checkout = await provider.createCheckout({
    inquiryPublicId: inquiry.public_id,
    domainName: inquiry.domain_name,
    amountCents: inquiry.amount_cents,
    currency: "usd",
    idempotencyKey: `checkout:${inquiry.public_id}:${inquiry.checkout_session_id ?? "first"}`,
    // Concatenated, not URLSearchParams: Stripe must see the literal {CHECKOUT_SESSION_ID}.
    successUrl: `${back}&session_id={CHECKOUT_SESSION_ID}`,
    cancelUrl: `${back}&canceled=1`,
    buyerEmail: inquiry.email,
  });
  attachCheckout(inquiry, checkout.checkoutId);
  return checkout.url;
}

export interface PaymentStepState {
  inquiry: Inquiry;
  clientSecret: string | null;
  lastError: string | null;
  /**
   * The provider took (or is taking) the buyer's money but it is not recorded yet: a payment still
   * processing, or one whose recording failed. The page then offers no second payment.
   */
  processing: boolean;
}

/**
 * The payment page asks the provider about a pending inquiry's payments (the buyer may have paid and
 * come back, or reloaded): a succeeded one is fulfilled here, so the success return needs no webhook.
 */
export async function reconcileInquiry(inquiry: Inquiry): Promise<PaymentStepState> {
  const done = { inquiry, clientSecret: null, lastError: null, processing: false };
  if (inquiry.status !== "pending" || inquiry.provider === "free") return done;
  const provider = providerFor(inquiry);
  let clientSecret: string | null = null;
  let lastError: string | null = null;
  let processing = false;
  if (inquiry.checkout_session_id) {
    const checkoutId = inquiry.checkout_session_id;
    const result = await throttledAsk(`page:${checkoutId}`, () => fulfilPayment(provider, { checkoutId }));
    if (result.ok) return { ...done, inquiry: result.inquiry };
    processing ||= isTaken(result);
  }
  if (inquiry.payment_intent_id) {
    const paymentId = inquiry.payment_intent_id;
    const result = await throttledAsk(`page:${paymentId}`, () => fulfilPayment(provider, { paymentId }));
    if (result.ok) return { ...done, inquiry: result.inquiry };
    clientSecret = result.state?.clientSecret ?? null;
    lastError = result.state?.lastError ?? null;
    processing ||= isTaken(result);
  }
  return { inquiry: findInquiryByPublicId(inquiry.public_id) ?? inquiry, clientSecret, lastError, processing };
}

function isTaken(result: Extract<FulfilResult, { ok: false }>): boolean {
  return result.reason === "not_succeeded" && result.state?.status === "processing";
}
