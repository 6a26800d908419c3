import { data } from "react-router";
import { DomainView } from "../components/domain-view";
import { NotFoundView } from "../components/ui";
import { domainPageMeta, soldPageMeta, type DomainPageData } from "../lib/seo";
import { findDomainByParam, findSoldDomainByParam } from "../server/catalog/domains.server";
import { SoldView, type SoldPage } from "../components/sale/sold-view";
import { env } from "../server/runtime/env.server";
import { loadDomainPage, loadSoldPage } from "../server/catalog/landers.server";
import type { Route } from "./+types/domain";

export const NOT_FOUND_TEXT = "The domain you're looking for doesn't exist.";

/** The page's data: `page` is null for a name not listed (404) or sold (`sold`). */
export interface DomainRouteData {
  siteName: string;
  page: DomainPageData | null;
  sold?: SoldPage;
}

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const domain = await findDomainByParam(params.domainName);
  if (!domain) {
    const sold = await findSoldDomainByParam(params.domainName);
    if (sold) return { siteName: env.SITE_NAME, page: null, sold: await loadSoldPage(sold) } satisfies DomainRouteData;
    return data({ siteName: env.SITE_NAME, page: null } satisfies DomainRouteData, { status: 404 });
  }
  return { siteName: env.SITE_NAME, page: await loadDomainPage(domain, request, context) } satisfies DomainRouteData;
}

export default function DomainPage({ loaderData }: Route.ComponentProps) {
  const { page } = loaderData;
  if (!page && "sold" in loaderData && loaderData.sold) return <SoldView {...loaderData.sold} />;
  if (!page) return <NotFoundView message={NOT_FOUND_TEXT} />;
  return (
    <DomainView
      domain={page.domain}
      feeCents={page.feeCents}
      replyDays={page.replyDays}
      categories={page.categories}
      pitch={page.pitch}
      similar={page.similar}
      feePromise={page.feePromise}
      buyNowCents={page.buyNowCents}
      saleState={page.saleState}
      back={{ to: "/", label: "Back to Domains" }}
    />
  );
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (loaderData && !loaderData.page && "sold" in loaderData && loaderData.sold) {
    return soldPageMeta(loaderData.sold.name, loaderData.siteName);
  }
  if (!loaderData?.page) {
    return [
      { title: `Domain not found | ${loaderData?.siteName ?? ""}` },
      { name: "description", content: "The domain you're looking for doesn't exist." },
      { name: "robots", content: "noindex" },
    ];
  }
  return domainPageMeta(loaderData.page);
}
