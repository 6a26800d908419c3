// The owner's optional minimum offer: the buyer is warned before paying, never told the amount.

export const BELOW_MINIMUM_WARNING = "Offers below the owner's minimum are usually declined";
/** The "Send anyway" submit button's name: the buyer saw the warning and goes on. */
export const CONTINUE_BELOW_MINIMUM_FIELD = "continue_below_minimum";

const OFFER_PATTERN = /^(?:usd|us\$|\$)?\s*(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?\s*(k|m)?\s*(?:usd|dollars?|\$)?$/i;

/**
 * "Your Offer" as cents when it reads as one dollar amount ("$12,500", "12500 USD", "7.5k", "$1.2m");
 * null for anything else ("make me an offer", "10-20k", "€5,000"), which is never warned about.
 */
export function parseOfferCents(offer: string): number | null {
  const match = OFFER_PATTERN.exec(offer.trim().replace(/\s+/g, " "));
  if (!match) return null;
  const whole = Number(match[1]!.replace(/,/g, ""));
  const fraction = Number((match[2] ?? "").padEnd(2, "0"));
  const multiplier = { k: 1_000, m: 1_000_000 }[(match[3] ?? "").toLowerCase() as "k" | "m"] ?? 1;
  const cents = Math.round((whole * 100 + fraction) * multiplier);
  return Number.isSafeInteger(cents) ? cents : null;
}
