// Money is integer cents everywhere; dollars exist only at the edges (form input, display).

const DOLLARS_PATTERN = /^\s*\$?\s*(\d{1,12})(?:\.(\d{0,2}))?\s*$/;
const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
const usdWhole = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  maximumFractionDigits: 0,
});

/** "19.99" -> 1999; "1,500" and anything else that is not a plain non-negative amount -> null. */
export function dollarsToCents(input: string): number | null {
  const match = DOLLARS_PATTERN.exec(input);
  if (!match) return null;
  const cents = Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
  return Number.isSafeInteger(cents) ? cents : null;
}

/** The text stored in settings: 1999 -> "19.99". */
export function centsToDollarText(cents: number): string {
  return (cents / 100).toFixed(2);
}

/** For display: 1999 -> "$19.99", 2500000 -> "$25,000". */
export function formatUsd(cents: number): string {
  return cents % 100 === 0 ? usdWhole.format(cents / 100) : usd.format(cents / 100);
}
