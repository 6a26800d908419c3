// The payment flow's steps, shared by the /payment page (forms, no JavaScript) and the JSON routes
// (JavaScript). The amount is always the server's current fee, fixed on the inquiry when it is created.
import type { Domain, Inquiry } from "../../../db/schema";
import { shortDomainName } from "../../lib/domain-name";
import { BUSY_MESSAGE, isDatabaseBusy } from "../db/database.server";
import { inTransaction } from "../db/dialect.server";
import { env } from "../runtime/env.server";
import { offerFloorWarning } from "../catalog/offer-floor.server";
import { getInquiryFeeCents } from "../catalog/settings.server";
import { getResponseWindowDays } from "../inquiries/refund-promise.server";
import {
  CREDIT_PROVIDER,
  fulfilCreditInquiry,
  fulfilFreeInquiry,
  fulfilPayment,
  type FulfilResult,
} from "./fulfil.server";
import { CREDIT_CODE_FIELD, CREDIT_CODE_REFUSED, normalizeCreditCode } from "../../lib/credit-code";
import { claimCredit } from "../inquiries/fee-choice.server";
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
  type InquiryInput,
} from "../inquiries/inquiries.server";
import type { ProviderName } from "./provider.server";
import { log } from "../runtime/log.server";

export type StartResult =
  | {
      kind: "invalid";
      status: 400 | 409 | 429 | 503;
      message: string;
      fieldErrors: Partial<Record<InquiryField, string>>;
      belowMinimum?: boolean;
    }
  | { kind: "free"; inquiry: Inquiry }
  | { kind: "created"; inquiry: Inquiry };

export const FEE_CHANGED_MESSAGE = "The inquiry fee has just changed. Please review it and send your inquiry again.";

/** Validates the buyer's form and records a pending inquiry (or a fulfilled one when the fee is 0). */
/** `clientAddress`: clientIp(context), what rate limits count by. */
export async function startInquiry(
  clientAddress: string,
  domain: Domain,
  raw: Record<string, unknown>,
): Promise<StartResult> {
  const validation = validateInquiry(raw);
  if (!validation.ok)
    return { kind: "invalid", status: 400, message: validation.message, fieldErrors: validation.fieldErrors };
  // Counted before the offer is compared with the owner's private minimum: were the limit checked
  // after, 409 (below) against 429 (limited) would reveal the minimum to a binary search without end.
  const ip = clientAddress;
  const feeCents = await getInquiryFeeCents();
  const limit = feeCents === 0 ? freeInquiryRateLimit : inquiryRateLimit;
  if (!(await limit.hit(`inquiry:${ip}`)))
    return { kind: "invalid", status: 429, message: TOO_MANY_INQUIRIES_MESSAGE, fieldErrors: {} };
  // An offer below the owner's private minimum: warn before anything is created or charged (409 = confirm first).
  const floorWarning = offerFloorWarning(domain, validation.input.offer, raw);
  if (floorWarning) return { kind: "invalid", status: 409, message: floorWarning, fieldErrors: {}, belowMinimum: true };
  const creditCode = feeCents === 0 ? "" : normalizeCreditCode(raw[CREDIT_CODE_FIELD]);
  if (creditCode) return startCreditInquiry(domain, validation.input, creditCode, ip);
  const provider: ProviderName | "free" = feeCents === 0 ? "free" : getPaymentProvider().name;
  if (!(await mayCreatePayment(clientAddress, provider))) {
    return { kind: "invalid", status: 429, message: PAYMENTS_PAUSED_TEXT, fieldErrors: {} };
  }
  try {
    // Read before the transaction, which runs only its own queries.
    const windowDays = feeCents === 0 ? await getResponseWindowDays() : 0;
    // One transaction: a free inquiry is stored fulfilled or not at all.
    return await inTransaction(async (trx): Promise<StartResult> => {
      // The fee in force now, not when the checks above began: an admin may have changed it meanwhile
      // (another process's change included). A change between free and paid needs the buyer's review.
      const amountCents = await getInquiryFeeCents(trx);
      if ((amountCents === 0) !== (feeCents === 0))
        return { kind: "invalid", status: 409, message: FEE_CHANGED_MESSAGE, fieldErrors: {} };
      const inquiry = await createInquiry(
        { domain, input: validation.input, amountCents, provider, clientIp: ip },
        trx,
      );
      if (feeCents === 0) return { kind: "free", inquiry: await fulfilFreeInquiry(inquiry, windowDays, trx) };
      return { kind: "created", inquiry };
    });
  } catch (error) {
    // Another writer held the database too long: nothing was stored (the transaction rolled back).
    if (!isDatabaseBusy(error)) throw error;
    log.error({ domain: domain.domain_name }, "database busy: inquiry refused");
    return { kind: "invalid", status: 503, message: BUSY_MESSAGE, fieldErrors: {} };
  }
}

/**
 * Paid with a credit code: in one transaction the code is claimed (a conditional UPDATE: of two uses at
 * once, in any processes, one claims it), the inquiry created and fulfilled. A refused code changes nothing.
 */
async function startCreditInquiry(domain: Domain, input: InquiryInput, code: string, ip: string): Promise<StartResult> {
  const windowDays = await getResponseWindowDays();
  try {
    return await inTransaction(async (trx): Promise<StartResult> => {
      const amountCents = await getInquiryFeeCents(trx);
      const inquiry = await createInquiry({ domain, input, amountCents, provider: CREDIT_PROVIDER, clientIp: ip }, trx);
      if (!(await claimCredit(code, inquiry.id, trx))) throw new CreditRefused();
      return { kind: "free", inquiry: await fulfilCreditInquiry(inquiry, windowDays, trx) };
    });
  } catch (error) {
    if (error instanceof CreditRefused)
      return { kind: "invalid", status: 400, message: CREDIT_CODE_REFUSED, fieldErrors: {} };
    if (!isDatabaseBusy(error)) throw error;
    return { kind: "invalid", status: 503, message: BUSY_MESSAGE, fieldErrors: {} };
  }
}

/** Rolls the credit inquiry's transaction back: nothing is stored for a refused code. */
class CreditRefused extends Error {}

function providerFor(inquiry: Inquiry) {
  return getPaymentProvider(inquiry.provider as ProviderName);
}

/** JavaScript path: one payment per inquiry (the idempotency key is the inquiry's). */
export async function createPaymentForInquiry(inquiry: Inquiry): Promise<{ paymentId: string; clientSecret: string }> {
  const payment = await providerFor(inquiry).createPayment({
    reference: inquiry.public_id,
    domainName: inquiry.domain_name,
    amountCents: inquiry.amount_cents,
    currency: "usd",
    idempotencyKey: `payment:${inquiry.public_id}`,
  });
  await attachPayment(inquiry, payment.paymentId);
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
    reference: inquiry.public_id,
    domainName: inquiry.domain_name,
    amountCents: inquiry.amount_cents,
    currency: "usd",
    idempotencyKey: `checkout:${inquiry.public_id}:${inquiry.checkout_session_id ?? "first"}`,
    // Concatenated, not URLSearchParams: Stripe must see the literal {CHECKOUT_SESSION_ID}.
    successUrl: `${back}&session_id={CHECKOUT_SESSION_ID}`,
    cancelUrl: `${back}&canceled=1`,
    buyerEmail: inquiry.email,
  });
  await attachCheckout(inquiry, checkout.checkoutId);
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
  return { inquiry: (await findInquiryByPublicId(inquiry.public_id)) ?? inquiry, clientSecret, lastError, processing };
}

function isTaken(result: Extract<FulfilResult, { ok: false }>): boolean {
  return result.reason === "not_succeeded" && result.state?.status === "processing";
}
