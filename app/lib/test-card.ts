// The offline test provider's card rules (Stripe's test cards). Pure, so the checkout page, the
// inline card form and the unit tests share them.

export const TEST_MODE_LABEL = "Test mode - no real charge";
export const TEST_CARD_SUCCESS = "4242424242424242";
export const TEST_CARD_DECLINED = "4000000000000002";
export const CARD_DECLINED_MESSAGE = "Your card was declined.";

export interface CardInput {
  number: string;
  expiry: string;
  cvc: string;
}

export type CardCheck =
  { outcome: "approved" } | { outcome: "declined"; message: string } | { outcome: "invalid"; message: string };

function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** "MM/YY" (or "MM / YY", "MMYY") -> { month, year } with a four-digit year, or null. */
export function parseExpiry(input: string): { month: number; year: number } | null {
  const match = /^\s*(\d{1,2})\s*\/?\s*(\d{2})\s*$/.exec(input);
  if (!match) return null;
  return { month: Number(match[1]), year: 2000 + Number(match[2]) };
}

/** Checks a card the way the test provider does; `today` is injectable for tests. */
export function checkTestCard(card: CardInput, today: Date = new Date()): CardCheck {
  const number = card.number.replace(/[\s-]/g, "");
  if (number === "") return { outcome: "invalid", message: "Your card number is incomplete." };
  if (!/^\d+$/.test(number) || number.length < 13 || number.length > 19 || !passesLuhn(number)) {
    return { outcome: "invalid", message: "Your card number is invalid." };
  }
  const expiry = parseExpiry(card.expiry);
  if (card.expiry.trim() === "") return { outcome: "invalid", message: "Your card's expiration date is incomplete." };
  if (!expiry) return { outcome: "invalid", message: "Your card's expiration date is invalid. Use MM/YY." };
  if (expiry.month < 1 || expiry.month > 12)
    return { outcome: "invalid", message: "Your card's expiration month is invalid." };
  const thisMonth = today.getUTCFullYear() * 12 + today.getUTCMonth();
  if (expiry.year * 12 + (expiry.month - 1) < thisMonth) {
    return { outcome: "invalid", message: "Your card's expiration date is in the past." };
  }
  const cvc = card.cvc.trim();
  if (cvc === "") return { outcome: "invalid", message: "Your card's security code is incomplete." };
  if (!/^\d{3,4}$/.test(cvc)) return { outcome: "invalid", message: "Your card's security code is invalid." };
  if (number === TEST_CARD_SUCCESS) return { outcome: "approved" };
  if (number === TEST_CARD_DECLINED) return { outcome: "declined", message: CARD_DECLINED_MESSAGE };
  return {
    outcome: "declined",
    message: "Test mode accepts only test cards: use 4242 4242 4242 4242 (no real card is charged).",
  };
}
