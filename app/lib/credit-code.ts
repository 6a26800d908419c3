// Credit codes (issue 23): "CR-" and 12 symbols in groups of four. Typed with spaces, without dashes or
// in lower case, a code is still found.

export const CREDIT_CODE_FIELD = "credit_code";

export function normalizeCreditCode(input: unknown): string {
  const compact = (typeof input === "string" ? input : "")
    .replace(/[\s-]+/g, "")
    .toUpperCase()
    .slice(0, 64);
  const match = /^CR([2-9A-Z]{4})([2-9A-Z]{4})([2-9A-Z]{4})$/.exec(compact);
  return match ? `CR-${match[1]}-${match[2]}-${match[3]}` : compact;
}

export const CREDIT_CODE_REFUSED =
  "That credit code is unknown, expired or already used. Check it, or leave the field empty to pay the fee.";
