import type { Domain } from "../../../db/schema";
import { hostNameFromHeader, siteOriginFor } from "../../lib/host";
import type { DomainPageData } from "../../lib/seo";
import { domainPagePath } from "../../lib/domain-name";
import { findLiveDomainByName, findSoldDomainByParam } from "./domains.server";
import { recordDomainView } from "./domain-views.server";
import { env } from "../runtime/env.server";
import { isKnownHost, operatorHostNames } from "./hosts.server";
import { ownerTypicalReplyDays } from "./owner-reply-time.server";
import type { RouterContextProvider } from "react-router";
import type { SoldPage } from "../../components/sale/sold-view";
import { repeatOnCacheHit } from "../http/page-cache.server";
import { getInquiryFeeCents } from "./settings.server";
import { categoriesOfDomain } from "./categories.server";
import { similarDomains } from "./similar.server";
import { currentFeePromise } from "../inquiries/refund-promise.server";
import { perContentVersion } from "../db/content-version.server";

// The operator's own addresses keep the splash and browse page; any other listed domain pointed at
// this server greets its visitor with its own for-sale page.

/**
 * The domain a request's Host names: listed (its for-sale page), or sold here (its "has been sold" page,
 * until the buyer points it elsewhere); null for the operator's hosts and unknown or malformed ones.
 */
export async function landerDomainFor(request: Request): Promise<{ live: Domain } | { sold: Domain } | null> {
  const name = hostNameFromHeader(request.headers.get("host"));
  if (!name || operatorHostNames.has(name) || !name.includes(".")) return null;
  const live = await findLiveDomainByName(name);
  if (live) return { live };
  const sold = await findSoldDomainByParam(name);
  return sold ? { sold } : null;
}

/** What a sold name's page shows (SoldView) at /domain/{short}, or on its own lander (`onLander`). */
export async function loadSoldPage(sold: Domain, { onLander = false } = {}): Promise<SoldPage> {
  const browseUrl = onLander ? operatorHomeUrl() && `${operatorHomeUrl()}#domains` : "/#domains";
  return { name: sold.domain_name, similar: await similarDomains(sold), browseUrl };
}

/**
 * Whether this server answers for a host name: the operator's own names and every listed domain (with
 * or without www.). A TLS proxy asks before it gets a certificate for a name it has never seen (Caddy's
 * on-demand TLS, deploy/Caddyfile), so nobody can make it request certificates for arbitrary names.
 */
export async function servesHostName(value: string | null): Promise<boolean> {
  return isKnownHost(value);
}

/** Where absolute links point: PUBLIC_URL when set, else the origin the request came in on (when its Host is sane). */
export function siteOrigin(request: Request): string {
  return siteOriginFor(request, env.PUBLIC_URL);
}

// What a domain page shows besides the domain changes only with the content version (settings, categories
// and domains are watched by its triggers): read once per version, so a render sends one statement (the
// domain itself) once these are known.
const pageSettings = perContentVersion(async () => {
  const [feeCents, feePromise] = await Promise.all([getInquiryFeeCents(), currentFeePromise()]);
  return { feeCents, feePromise };
});

/**
 * What the shared domain view needs, for /domain/{short} and for a host lander alike. Counts the view.
 * Only public fields: the owner's email and minimum offer never leave the server.
 */
export async function loadDomainPage(
  domain: Domain,
  request: Request,
  context: Readonly<RouterContextProvider>,
): Promise<DomainPageData> {
  recordDomainView(domain.id, request);
  // Served from the page cache, the page is not rendered again: count those views as well.
  repeatOnCacheHit(context, (hit) => recordDomainView(domain.id, hit));
  const origin = siteOrigin(request);
  const [{ feeCents, feePromise }, replyDays, categories, similar] = await Promise.all([
    pageSettings(),
    ownerTypicalReplyDays(domain),
    categoriesOfDomain(domain.id).then((list) => list.map(({ slug, name }) => ({ slug, name }))),
    similarDomains(domain),
  ]);
  return {
    siteName: env.SITE_NAME,
    domain: { name: domain.domain_name, askingPriceCents: domain.asking_price_cents },
    feeCents,
    canonicalUrl: `${origin}${domainPagePath(domain.domain_name)}`,
    replyDays,
    categories,
    pitch: domain.pitch,
    similar,
    feePromise,
    buyNowCents: domain.buy_now_cents,
    saleState: domain.sale_state === "under_offer" ? "under_offer" : null,
  };
}

/** The operator's browse page, for a "browse more" link on a lander: only when PUBLIC_URL says where it is. */
export function operatorHomeUrl(): string | null {
  return env.PUBLIC_URL ? `${new URL(env.PUBLIC_URL).origin}/` : null;
}
