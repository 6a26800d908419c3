import { defaultLegalText, type LegalSlug } from "../../lib/legal-pages";
import { formatUsd } from "../../lib/money";
import { getResponseWindowDays } from "../refunds/refund-promise.server";
import { env } from "../runtime/env.server";
import { getInquiryFeeCents, getSetting, setSetting } from "./settings.server";

// Each page's text is a settings row ("legal_page:terms"); an empty text means the default.
const key = (slug: LegalSlug) => `legal_page:${slug}`;

/** The admin's own text for a page, or "" when it shows the default. */
export async function getCustomLegalText(slug: LegalSlug): Promise<string> {
  return (await getSetting(key(slug))) ?? "";
}

export async function setCustomLegalText(slug: LegalSlug, text: string): Promise<void> {
  await setSetting(key(slug), text.replace(/\r\n/g, "\n").trim());
}

/** What the page shows: the admin's text, or the default stating the current fee and refund promise. */
export async function legalPageText(slug: LegalSlug): Promise<{ text: string; custom: boolean }> {
  const custom = await getCustomLegalText(slug);
  if (custom) return { text: custom, custom: true };
  const [feeCents, responseWindowDays] = await Promise.all([getInquiryFeeCents(), getResponseWindowDays()]);
  const facts = { siteName: env.SITE_NAME, contactEmail: env.CONTACT_EMAIL ?? null, feeCents, feeText: formatUsd(feeCents), responseWindowDays };
  return { text: defaultLegalText(slug, facts), custom: false };
}
