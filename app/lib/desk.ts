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

/** The most of the buyer's message quoted in a reply email: mail clients cut long mailto: links. */
export const MAILTO_QUOTE_CHARS = 1_500;

/**
 * A `mailto:` link answering a buyer from the admin's own mail program: to the buyer, "Re:" the
 * inquiry's subject, with their message quoted (cut at MAILTO_QUOTE_CHARS).
 */
export function replyMailto(inquiry: {
  email: string;
  name: string;
  domainName: string;
  message: string;
  sentOn: string;
}): string {
  const message =
    inquiry.message.length > MAILTO_QUOTE_CHARS
      ? `${inquiry.message.slice(0, MAILTO_QUOTE_CHARS).trimEnd()} [...]`
      : inquiry.message;
  const quote = message
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((line) => `> ${line}`.trimEnd())
    .join("\n");
  const body = `\n\nOn ${inquiry.sentOn}, ${inquiry.name} wrote:\n${quote}\n`;
  const params = `subject=${encodeURIComponent(`Re: Your inquiry about ${inquiry.domainName}`)}&body=${encodeURIComponent(body)}`;
  return `mailto:${encodeURIComponent(inquiry.email).replace(/%40/g, "@")}?${params}`;
}
