// The Terms, Privacy and Refund policy pages: their paths, titles and default texts (browser-safe).
// The admin may replace a text (plain text or a small Markdown subset, app/components/markdown.tsx).
import { feePromiseText, type SilencePolicy } from "./response-window";

export const LEGAL_PAGES = [
  { slug: "terms", title: "Terms" },
  { slug: "privacy", title: "Privacy" },
  { slug: "refunds", title: "Refund policy" },
] as const;

export type LegalSlug = (typeof LEGAL_PAGES)[number]["slug"];
export const MAX_LEGAL_TEXT_LENGTH = 20_000;

export function isLegalSlug(value: string): value is LegalSlug {
  return LEGAL_PAGES.some((page) => page.slug === value);
}

export function legalTitle(slug: LegalSlug): string {
  return LEGAL_PAGES.find((page) => page.slug === slug)!.title;
}

export interface LegalFacts {
  siteName: string;
  contactEmail: string | null;
  feeText: string;
  feeCents: number;
  responseWindowDays: number;
  silencePolicy: SilencePolicy;
}

/** A page's text when the admin has not written one: states the refund promise from the current settings. */
export function defaultLegalText(slug: LegalSlug, facts: LegalFacts): string {
  const contact = facts.contactEmail ? `Write to ${facts.contactEmail}.` : "Use the inquiry form on any domain's page.";
  const fee =
    facts.feeCents > 0
      ? `Sending an inquiry costs a one-time fee of ${facts.feeText}, paid by card through Stripe.`
      : "Sending an inquiry is currently free.";
  // A $0 fee has nothing to refund: no promise is stated then.
  const promise = facts.feeCents > 0 ? feePromiseText(facts.silencePolicy, facts.responseWindowDays) : "";
  const how =
    facts.silencePolicy === "choose"
      ? "You choose on your inquiry's page; without a choice the fee goes back to the card you paid with."
      : "The fee goes back to the card you paid with; you do not need to ask.";
  if (slug === "refunds") {
    return [
      "## The inquiry fee",
      fee,
      "## Our promise",
      promise ? `${promise} ${how}` : "While inquiries are free there is nothing to refund.",
      "Once the owner has replied, the fee is not refunded: it paid for that direct contact.",
      "## Questions",
      contact,
    ].join("\n\n");
  }
  if (slug === "privacy") {
    return [
      "## What we keep",
      `When you send an inquiry, ${facts.siteName} keeps what you wrote (name, email, phone, offer and message) and passes it to the domain's owner. Card details go to Stripe, never to us.`,
      "## What we do not do",
      "No advertising cookies and no tracking of visitors: page views are counted per day, without cookies.",
      "## Contact",
      contact,
    ].join("\n\n");
  }
  return [
    "## The service",
    `${facts.siteName} lists domain names for sale and puts buyers in touch with their owners. Prices shown are guiding prices: the sale itself is agreed between you and the owner.`,
    "## Inquiry fee",
    `${fee} ${promise}`.trim(),
    "## Contact",
    contact,
  ].join("\n\n");
}
