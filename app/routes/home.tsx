import { data, Form, Link } from "react-router";
import { z } from "zod";
import { DomainName, Price } from "../components/domain-name";
import { DomainView } from "../components/domain-view";
import { Pagination } from "../components/pagination";
import { GlobeIcon } from "../components/icons";
import { card, fieldClass, primaryButton, secondaryButton } from "../components/ui";
import { domainPagePath } from "../lib/domain-name";
import { formatUsd } from "../lib/money";
import { MAX_SEARCH_LENGTH, TOO_MANY_SEARCHES } from "../lib/search";
import { domainPageMeta, openGraph } from "../lib/seo";
import { listPublicDomains } from "../server/catalog/domains.server";
import { env } from "../server/runtime/env.server";
import { landerDomainFor, loadDomainPage, operatorHomeUrl, siteOrigin } from "../server/catalog/landers.server";
import { clientIp } from "../server/http/request-context.server";
import { searchRateLimit } from "../server/http/search-limit.server";
import type { Route } from "./+types/home";

const PER_PAGE = 24;

const BrowseQuery = z.object({
  q: z.string().catch("").transform((q) => q.trim().slice(0, MAX_SEARCH_LENGTH)),
  page: z.coerce.number().int().min(1).max(1_000_000).catch(1),
});

export async function loader({ request, context }: Route.LoaderArgs) {
  // A listed domain pointed at this server greets its visitor with its own for-sale page.
  const landerDomain = await landerDomainFor(request);
  if (landerDomain) {
    return { kind: "lander" as const, lander: await loadDomainPage(landerDomain, request, context), browseUrl: operatorHomeUrl() };
  }
  const params = new URL(request.url).searchParams;
  const { q, page } = BrowseQuery.parse({ q: params.get("q") ?? "", page: params.get("page") ?? 1 });
  const browse = { kind: "browse" as const, siteName: env.SITE_NAME, homeUrl: `${siteOrigin(request)}/`, q, limited: false };
  // Each new search term is a scan of the names: one address may run only so many.
  if (q && !(await searchRateLimit.hit(`search:${clientIp(context)}`))) {
    return data({ ...browse, limited: true, rows: [], total: 0, page: 1, pageCount: 0 }, { status: 429, headers: { "Retry-After": "60" } });
  }
  const listing = await listPublicDomains({ search: q, page, perPage: PER_PAGE });
  return { ...browse, ...listing };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  if (loaderData.kind === "lander") {
    const { lander, browseUrl } = loaderData;
    const back = browseUrl ? { to: browseUrl, label: "Browse more domains" } : null;
    return <DomainView domain={lander.domain} feeCents={lander.feeCents} replyDays={lander.replyDays} back={back} />;
  }
  const { siteName, q, rows, total, page, pageCount, limited } = loaderData;
  return (
    <>
      <Splash siteName={siteName} />
      <main id="domains" className="mx-auto w-full max-w-5xl px-5 py-16">
        <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
          <div>
            <h2 className="text-2xl font-semibold">Domains for sale</h2>
            <p className="mt-1 text-slate-300">
              {total === 1 ? "1 domain" : `${total.toLocaleString("en-US")} domains`}
              {q ? ` matching "${q}"` : ""}
            </p>
          </div>
          <Form method="get" role="search" className="flex gap-2" action="/#domains">
            <label htmlFor="q" className="sr-only">
              Search domains
            </label>
            <input id="q" name="q" type="search" defaultValue={q} maxLength={MAX_SEARCH_LENGTH} placeholder="Search domains" className={`${fieldClass} w-56`} />
            <button type="submit" className={primaryButton}>
              Search
            </button>
          </Form>
        </div>
        {limited ? (
          <p role="alert" className={`${card} mt-8 text-center text-slate-300`}>
            {TOO_MANY_SEARCHES}
          </p>
        ) : rows.length === 0 ? (
          <p className={`${card} mt-8 text-center text-slate-300`}>
            {q ? "No domains match your search." : "No domains are listed yet."}
          </p>
        ) : (
          <ul className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {rows.map((domain) => (
              <li key={domain.id} className="min-w-0">
                <Link to={domainPagePath(domain.domain_name)} className={`${card} block transition hover:border-blue-500`}>
                  <span className="block text-lg font-semibold">
                    <DomainName name={domain.domain_name} fit />
                  </span>
                  <span className="mt-2 block text-sm text-slate-300">Guiding Price</span>
                  <Price className="block text-xl font-semibold text-blue-300">{formatUsd(domain.asking_price_cents)}</Price>
                </Link>
              </li>
            ))}
          </ul>
        )}
        <BrowsePagination q={q} page={page} pageCount={pageCount} />
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

function BrowsePagination({ q, page, pageCount }: { q: string; page: number; pageCount: number }) {
  const hrefFor = (target: number) => {
    const params = new URLSearchParams();
    if (q) params.set("q", q);
    if (target > 1) params.set("page", String(target));
    const search = params.toString();
    return `/${search ? `?${search}` : ""}#domains`;
  };
  return <Pagination page={page} pageCount={pageCount} hrefFor={hrefFor} className="mt-10" />;
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (loaderData?.kind === "lander") return domainPageMeta(loaderData.lander);
  const siteName = loaderData?.siteName ?? "Premium domains";
  const title = `${siteName} - Premium Domain Acquisitions`;
  const description = `${siteName}: premium domain names for sale. See the guiding price and contact the owner directly.`;
  const tags = [{ title }, { name: "description", content: description }];
  if (!loaderData) return tags;
  // Search results are not documents of their own for search engines; later pages carry no canonical.
  if (loaderData.q) return [...tags, { name: "robots", content: "noindex, follow" }];
  if (loaderData.page > 1) return tags;
  return [
    ...tags,
    { tagName: "link", rel: "canonical", href: loaderData.homeUrl },
    ...openGraph({ type: "website", siteName, title, description, url: loaderData.homeUrl }),
  ];
}
