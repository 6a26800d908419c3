import { data } from "react-router";
import { BrowseFilterForm, type FacetOption } from "../components/browse-filters";
import { DomainCards } from "../components/domain-cards";
import { DomainView } from "../components/domain-view";
import { Pagination } from "../components/pagination";
import { GlobeIcon } from "../components/icons";
import { card, secondaryButton } from "../components/ui";
import { asksForAnything, browseHref, ignoredNotes, readBrowseQuery } from "../lib/browse";
import { TOO_MANY_SEARCHES } from "../lib/search";
import { domainPageMeta, openGraph, soldPageMeta } from "../lib/seo";
import { browseDomains, extensionCounts } from "../server/catalog/browse.server";
import { categoryCounts } from "../server/catalog/categories.server";
import { env } from "../server/runtime/env.server";
import {
  landerDomainFor,
  loadDomainPage,
  loadSoldPage,
  operatorHomeUrl,
  siteOrigin,
} from "../server/catalog/landers.server";
import { SoldView } from "../components/sale/sold-view";
import { clientIp } from "../server/http/request-context.server";
import { searchRateLimit } from "../server/http/search-limit.server";
import type { Route } from "./+types/home";

const PER_PAGE = 24;

export async function loader({ request, context }: Route.LoaderArgs) {
  // A listed domain pointed at this server greets its visitor with its own for-sale page.
  const landerDomain = await landerDomainFor(request);
  if (landerDomain && "live" in landerDomain) {
    return {
      kind: "lander" as const,
      lander: await loadDomainPage(landerDomain.live, request, context),
      browseUrl: operatorHomeUrl(),
    };
  }
  // A name sold here, still pointed at this server: it says so (not the operator's splash).
  if (landerDomain)
    return {
      kind: "sold" as const,
      siteName: env.SITE_NAME,
      sold: await loadSoldPage(landerDomain.sold, { onLander: true }),
    };
  const query = readBrowseQuery(new URL(request.url).searchParams);
  const { filters, ignored } = query;
  const [extensions, categories] = await Promise.all([extensionCounts(), categoryCounts()]);
  // An extension no listed name has is a made-up one: say so rather than list nothing.
  if (filters.ext && !extensions.some((each) => each.tld === filters.ext)) {
    ignored.ext = filters.ext;
    filters.ext = "";
  }
  const category = filters.category ? categories.find((each) => each.slug === filters.category) : undefined;
  if (filters.category && !category) {
    ignored.cat = filters.category;
    filters.category = "";
  }
  const browse = {
    kind: "browse" as const,
    siteName: env.SITE_NAME,
    homeUrl: `${siteOrigin(request)}/`,
    filters,
    filtered: asksForAnything(query),
    notes: ignoredNotes(ignored),
    extensions: extensions.map(({ tld, count }) => ({ value: tld, label: `.${tld}`, count })),
    categories: categories.map(({ slug, name, count }): FacetOption => ({ value: slug, label: name, count })),
    limited: false,
  };
  // Each new search term is a scan of the names: one address may run only so many.
  if (filters.q && !(await searchRateLimit.hit(`search:${clientIp(context)}`))) {
    return data(
      { ...browse, limited: true, rows: [], total: 0, page: 1, pageCount: 0 },
      { status: 429, headers: { "Retry-After": "60" } },
    );
  }
  const listing = await browseDomains(filters, {
    page: query.page,
    perPage: PER_PAGE,
    categoryId: category?.id ?? null,
  });
  return { ...browse, ...listing };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  if (loaderData.kind === "lander") {
    const { lander, browseUrl } = loaderData;
    const back = browseUrl ? { to: browseUrl, label: "Browse more domains" } : null;
    return (
      <DomainView
        domain={lander.domain}
        feeCents={lander.feeCents}
        replyDays={lander.replyDays}
        categories={lander.categories}
        pitch={lander.pitch}
        similar={lander.similar}
        feePromise={lander.feePromise}
        buyNowCents={lander.buyNowCents}
        saleState={lander.saleState}
        back={back}
      />
    );
  }
  if (loaderData.kind === "sold") return <SoldView {...loaderData.sold} />;
  const { siteName, filters, rows, total, page, pageCount, limited, notes } = loaderData;
  const q = filters.q;
  return (
    <>
      <Splash siteName={siteName} />
      <main id="domains" className="mx-auto w-full max-w-5xl px-5 py-16">
        <h2 className="text-2xl font-semibold">Domains for sale</h2>
        <BrowseFilterForm filters={filters} extensions={loaderData.extensions} categories={loaderData.categories} />
        {notes.length > 0 ? (
          <ul role="status" className="mt-4 space-y-1 text-sm text-amber-200">
            {notes.map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
        ) : null}
        <p className="mt-6 text-slate-300">
          {total === 1 ? "1 name" : `${total.toLocaleString("en-US")} names`}
          {q ? ` matching "${q}"` : ""}
        </p>
        {limited ? (
          <p role="alert" className={`${card} mt-8 text-center text-slate-300`}>
            {TOO_MANY_SEARCHES}
          </p>
        ) : rows.length === 0 ? (
          <p className={`${card} mt-4 text-center text-slate-300`}>
            {loaderData.filtered ? "No domains match your search." : "No domains are listed yet."}
          </p>
        ) : (
          <DomainCards rows={rows} />
        )}
        <Pagination
          page={page}
          pageCount={pageCount}
          hrefFor={(target) => `${browseHref(filters, target)}#domains`}
          className="mt-10"
        />
      </main>
    </>
  );
}

function Splash({ siteName }: { siteName: string }) {
  return (
    <header className="relative flex min-h-screen items-center justify-center overflow-hidden bg-slate-950">
      <div aria-hidden="true" className="absolute inset-0">
        <div className="splash-orb absolute -left-1/4 -top-1/4 h-[70vmax] w-[70vmax] rounded-full bg-blue-700/25 blur-3xl" />
        <div className="splash-orb absolute -bottom-1/4 -right-1/4 h-[60vmax] w-[60vmax] rounded-full bg-indigo-600/20 blur-3xl [animation-delay:-12s]" />
      </div>
      <div className="relative z-10 flex flex-col items-center px-6 text-center">
        <GlobeIcon className="h-20 w-20 text-blue-400" />
        <h1 className="mt-6 text-5xl font-bold tracking-tight sm:text-6xl">{siteName}</h1>
        <p className="mt-4 text-xl text-slate-300">Premium Domain Acquisitions</p>
        <a href="#domains" className={`${secondaryButton} mt-10`}>
          Browse domains
        </a>
      </div>
    </header>
  );
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (loaderData?.kind === "lander") return domainPageMeta(loaderData.lander);
  if (loaderData?.kind === "sold") return soldPageMeta(loaderData.sold.name, loaderData.siteName);
  const siteName = loaderData?.siteName ?? "Premium domains";
  const title = `${siteName} - Premium Domain Acquisitions`;
  const description = `${siteName}: premium domain names for sale. See the guiding price and contact the owner directly.`;
  const tags = [{ title }, { name: "description", content: description }];
  if (!loaderData) return tags;
  // Searches and filtered lists are not documents of their own for search engines: the home page is.
  if (loaderData.filtered) {
    return [
      ...tags,
      { name: "robots", content: "noindex, follow" },
      { tagName: "link", rel: "canonical", href: loaderData.homeUrl },
    ];
  }
  if (loaderData.page > 1) return tags;
  return [
    ...tags,
    { tagName: "link", rel: "canonical", href: loaderData.homeUrl },
    ...openGraph({ type: "website", siteName, title, description, url: loaderData.homeUrl }),
  ];
}
