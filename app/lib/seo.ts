// Search-engine tags for public pages: browser-safe, since route meta functions also run in the browser.
import type { MetaDescriptor } from "react-router";
import { displayDomainName } from "./domain-name";
import { centsToDollarText, formatUsd } from "./money";

/** A name in "More names like this" (app/server/catalog/similar.server.ts): what its link shows. */
export interface SimilarName {
  /** As shown (displayDomainName). */
  name: string;
  /** Its page, /domain/{short}. */
  path: string;
  /** Its guiding price as shown ("$4,500"): formatted once, when the list is made. */
  price: string;
}

/** What the shared domain view and its tags need; only public fields. */
export interface DomainPageData {
  siteName: string;
  domain: { name: string; askingPriceCents: number };
  feeCents: number;
  canonicalUrl: string;
  /** The owner's typical reply time in whole days (trust signal), null until 3 inquiries are answered. */
  replyDays: number | null;
  /** The name's categories (links on the page). */
  categories: Array<{ slug: string; name: string }>;
  /** The owner's short description of the name (plain text), or null. */
  pitch: string | null;
  /** "More names like this", best first; empty when none. */
  similar: SimilarName[];
  /** The fee's promise from the settings, in its one wording (feePromiseText); shown while the fee is not 0. */
  feePromise: string;
  /** The buy now price, or null (issue 37). */
  buyNowCents: number | null;
  /** "under_offer" while a deal waits for payment; null otherwise (a sold name has its own view). */
  saleState: "under_offer" | null;
}

/** A sold name's page (SoldView): its title, and not a document for search engines any more. */
export function soldPageMeta(name: string, siteName: string): MetaDescriptor[] {
  return [{ title: `${name} has been sold | ${siteName}` }, { name: "robots", content: "noindex" }];
}

/** Title, description, canonical URL, Open Graph tags and a schema.org Product for one domain. */
export function domainPageMeta(page: DomainPageData): MetaDescriptor[] {
  const { domain, siteName, canonicalUrl } = page;
  const shownName = displayDomainName(domain.name);
  const title = `${shownName} is for sale | ${siteName}`;
  const description =
    page.pitch ??
    `${shownName} is for sale. Guiding price ${formatUsd(domain.askingPriceCents)}. Contact the owner directly.`;
  return [
    { title },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: canonicalUrl },
    ...openGraph({ type: "product", siteName, title, description, url: canonicalUrl }),
    // React Router writes this as JSON with <, > and & escaped, so no name can close the script tag.
    { "script:ld+json": productJsonLd(page, description) },
  ];
}

export function productJsonLd(page: DomainPageData, description: string): Record<string, unknown> {
  return {
    "@context": "https://schema.org",
    "@type": "Product",
    name: displayDomainName(page.domain.name),
    description,
    url: page.canonicalUrl,
    category: "Domain names",
    offers: {
      "@type": "Offer",
      price: centsToDollarText(page.domain.askingPriceCents),
      priceCurrency: "USD",
      availability: "https://schema.org/InStock",
      url: page.canonicalUrl,
      seller: { "@type": "Organization", name: page.siteName },
    },
  };
}

export function openGraph(tags: {
  type: string;
  siteName: string;
  title: string;
  description: string;
  url: string;
}): MetaDescriptor[] {
  return [
    { property: "og:type", content: tags.type },
    { property: "og:site_name", content: tags.siteName },
    { property: "og:title", content: tags.title },
    { property: "og:description", content: tags.description },
    { property: "og:url", content: tags.url },
    { name: "twitter:card", content: "summary" },
  ];
}
