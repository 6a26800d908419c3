import type { Domain } from "../../../db/schema";
import { BELOW_MINIMUM_WARNING, CONTINUE_BELOW_MINIMUM_FIELD, parseOfferCents } from "../../lib/offer-floor";

/**
 * The warning to show before payment when the buyer's offer reads as a dollar amount below the
 * owner's minimum, or null. A buyer who pressed "Send anyway" is not warned again.
 */
export function offerFloorWarning(
  domain: Pick<Domain, "min_offer_cents">,
  offer: string,
  raw: Record<string, unknown>,
): string | null {
  if (domain.min_offer_cents === null || domain.min_offer_cents <= 0) return null;
  if (raw[CONTINUE_BELOW_MINIMUM_FIELD] === "1") return null;
  const offerCents = parseOfferCents(offer);
  if (offerCents === null || offerCents >= domain.min_offer_cents) return null;
  return BELOW_MINIMUM_WARNING;
}
