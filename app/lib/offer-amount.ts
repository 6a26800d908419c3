// An offer's amount as typed (issue 37): US dollars, more than 0 and at most $100,000,000. Shared by the
// offer forms (their attributes) and the server's check (the messages shown).
import { dollarsToCents } from "./money";

export const MAX_OFFER_CENTS = 10_000_000_000;
export const OFFER_FIELD = "offerAmount";
export const COUNTER_FIELD = "counterAmount";

export type ParsedOffer = { ok: true; cents: number } | { ok: false; message: string };

export function parseOfferAmount(input: unknown): ParsedOffer {
  const text = typeof input === "string" ? input.trim().replace(/,/g, "") : "";
  if (text === "") return { ok: false, message: "Enter the amount of your offer in US dollars." };
  if (/^-/.test(text)) return { ok: false, message: "An offer cannot be negative." };
  const cents = dollarsToCents(text);
  if (cents === null)
    return { ok: false, message: "Enter the offer as an amount in US dollars, like 2500 or 2500.00." };
  if (cents === 0) return { ok: false, message: "An offer must be more than $0." };
  if (cents > MAX_OFFER_CENTS) return { ok: false, message: "An offer can be at most $100,000,000." };
  return { ok: true, cents };
}
