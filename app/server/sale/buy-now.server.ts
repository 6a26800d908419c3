// Buy now (issue 37 item 1): the buyer gives name and email and pays the domain's buy now price through
// the card provider's hosted checkout (Stripe Checkout, or the test provider's page), with and without
// JavaScript. The amount is the server's; the deal holds nothing until it is paid (deal-payment.server.ts).
import type { z } from "zod";
import type { Domain } from "../../../db/schema";
import { REQUIRED_FIELDS_MESSAGE } from "../../lib/inquiry";
import { InquirySchema } from "../inquiries/inquiries.server";
import { shortDomainName } from "../../lib/domain-name";
import { nowIso } from "../runtime/clock.server";
import { db } from "../db/database.server";
import { withoutNul } from "../db/strip-nul.server";
import { createRateLimit } from "../http/rate-limit.server";
import { activeProviderName, getPaymentProvider } from "../payments/index.server";
import { mayCreatePayment, PAYMENTS_PAUSED_TEXT } from "../payments/card-testing.server";
import { siteOrigin } from "../payments/flow.server";
import { dealPagePath, newDealPublicId } from "./deals.server";

// The inquiry form's own rules and messages for the same two fields.
export const BuyNowSchema = InquirySchema.pick({ name: true, email: true });
export type BuyNowInput = z.infer<typeof BuyNowSchema>;
export type BuyNowField = keyof BuyNowInput;

export const NO_BUY_NOW_TEXT = "This name has no buy now price: send an inquiry to the owner instead.";
export const UNDER_OFFER_TEXT = "This name is under offer, so it cannot be bought now.";
export const SOLD_TEXT = "This name has been sold.";
const TOO_MANY_TEXT = "Too many purchases started from your address. Please try again later.";

const buyNowRateLimit = createRateLimit({ name: "buy-now", limit: 20, windowMs: 10 * 60 * 1000 });

export type BuyNowResult =
  | { ok: true; checkoutUrl: string }
  | { ok: false; status: number; message: string; fieldErrors: Partial<Record<BuyNowField, string>> };

/** Why this domain cannot be bought now, or null when it can. */
export function buyNowRefusal(domain: Pick<Domain, "buy_now_cents" | "sale_state">): string | null {
  if (domain.sale_state === "sold") return SOLD_TEXT;
  if (domain.sale_state === "under_offer") return UNDER_OFFER_TEXT;
  if (!domain.buy_now_cents || domain.buy_now_cents <= 0) return NO_BUY_NOW_TEXT;
  return null;
}

function refuse(status: number, message: string): BuyNowResult {
  return { ok: false, status, message, fieldErrors: {} };
}

export function validateBuyNow(
  form: FormData,
): { ok: true; input: BuyNowInput } | Extract<BuyNowResult, { ok: false }> {
  const text = (key: string) => {
    const value = form.get(key);
    return typeof value === "string" ? (withoutNul(value) as string) : "";
  };
  const parsed = BuyNowSchema.safeParse({ name: text("name"), email: text("email") });
  if (parsed.success) return { ok: true, input: parsed.data };
  const fieldErrors: Partial<Record<BuyNowField, string>> = {};
  for (const issue of parsed.error.issues) fieldErrors[issue.path[0] as BuyNowField] ??= issue.message;
  const missing = Object.values(fieldErrors).includes(REQUIRED_FIELDS_MESSAGE);
  return {
    ok: false,
    status: 400,
    message: missing ? REQUIRED_FIELDS_MESSAGE : Object.values(fieldErrors)[0]!,
    fieldErrors,
  };
}

/**
 * Starts a buy now: a deal in 'checkout' at the domain's buy now price, and a hosted checkout for it.
 * Returns where to send the buyer (303), or why not.
 */
export async function startBuyNow(
  domain: Domain,
  form: FormData,
  request: Request,
  clientAddress: string,
): Promise<BuyNowResult> {
  const refusal = buyNowRefusal(domain);
  if (refusal) return refuse(409, refusal);
  const valid = validateBuyNow(form);
  if (!valid.ok) return valid;
  if (!(await buyNowRateLimit.hit(clientAddress))) return refuse(429, TOO_MANY_TEXT);
  const providerName = activeProviderName();
  if (!(await mayCreatePayment(clientAddress, providerName))) return refuse(429, PAYMENTS_PAUSED_TEXT);

  const publicId = newDealPublicId();
  const priceCents = domain.buy_now_cents!;
  const timestamp = nowIso();
  await db
    .insertInto("deals")
    .values({
      public_id: publicId,
      domain_id: domain.id,
      domain_name: domain.domain_name,
      inquiry_id: null,
      origin: "buy_now",
      price_cents: priceCents,
      fee_credited_cents: 0,
      amount_due_cents: priceCents,
      buyer_name: valid.input.name,
      buyer_email: valid.input.email,
      owner_email: domain.owner_email.trim(),
      status: "checkout",
      provider: providerName,
      created_at: timestamp,
      updated_at: timestamp,
    })
    .execute();

  const origin = siteOrigin(request);
  const checkout = await getPaymentProvider(providerName).createCheckout({
    purpose: "deal",
    reference: publicId,
    domainName: domain.domain_name,
    amountCents: priceCents,
    currency: "usd",
    idempotencyKey: `deal-checkout:${publicId}`,
    // Concatenated, not URLSearchParams: the provider must see the literal {CHECKOUT_SESSION_ID}.
    successUrl: `${origin}${dealPagePath("buyer", publicId)}&session_id={CHECKOUT_SESSION_ID}`,
    cancelUrl: `${origin}/buy/${encodeURIComponent(shortDomainName(domain.domain_name))}`,
    buyerEmail: valid.input.email,
  });
  await db.updateTable("deals").set({ checkout_id: checkout.checkoutId }).where("public_id", "=", publicId).execute();
  return { ok: true, checkoutUrl: checkout.url };
}
