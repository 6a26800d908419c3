import { defaultLegalText, type LegalSlug } from "../../lib/legal-pages";
import { formatUsd } from "../../lib/money";
import { getResponseWindowDays, getSilencePolicy } from "../inquiries/refund-promise.server";
import { perContentVersion } from "../db/content-version.server";
import { env } from "../runtime/env.server";
import { getInquiryFeeCents, getSetting, setSetting } from "./settings.server";

const CONTACT_KEY = "contact_email";

/**
 * The operator's public contact address (footer and legal pages), set on /admin/pages; null when unset.
 * Every page's footer shows it: read once per content version (a settings write moves the version on).
 */
export const getContactEmail = perContentVersion<string | null>(async () => (await getSetting(CONTACT_KEY)) || null);

/** "" clears it. */
export async function setContactEmail(email: string): Promise<void> {
  await setSetting(CONTACT_KEY, email.trim());
}

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
  const [feeCents, responseWindowDays, silencePolicy, contactEmail] = await Promise.all([
    getInquiryFeeCents(),
    getResponseWindowDays(),
    getSilencePolicy(),
    getContactEmail(),
  ]);
  const facts = {
    siteName: env.SITE_NAME,
    contactEmail,
    feeCents,
    feeText: formatUsd(feeCents),
    responseWindowDays,
    silencePolicy,
  };
  return { text: defaultLegalText(slug, facts), custom: false };
}
