// Pure helpers for the admin's desk (issue 26, items 9 and 10): shared by the server and the views.
import { formatUsd } from "./money";
import { parseOfferCents } from "./offer-floor";

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

function plural(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? "" : "s"}`;
}

/** How long until a deadline, in words: "in 2 days", "in 5 hours", "in 12 minutes", or "now". */
export function dueInText(msUntil: number): string {
  if (msUntil < MINUTE_MS) return "now";
  if (msUntil < HOUR_MS) return `in ${plural(Math.floor(msUntil / MINUTE_MS), "minute")}`;
  if (msUntil < 2 * DAY_MS) return `in ${plural(Math.floor(msUntil / HOUR_MS), "hour")}`;
  return `in ${plural(Math.floor(msUntil / DAY_MS), "day")}`;
}

/**
 * A buyer's offer against the asking price, e.g. "$9,000 — 37% of the $24,500 asking price". The
 * offer is free text: one that does not read as a dollar amount is shown as written, without a share.
 */
export function offerAgainstAsking(offer: string, askingPriceCents: number | null): string {
  const text = offer.trim();
  if (!text) return "No offer";
  const offerCents = parseOfferCents(text);
  if (offerCents === null || askingPriceCents === null || askingPriceCents <= 0) return text;
  const percent = Math.round((offerCents / askingPriceCents) * 100);
  return `${formatUsd(offerCents)} — ${percent}% of the ${formatUsd(askingPriceCents)} asking price`;
}
