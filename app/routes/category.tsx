import { data, Link } from "react-router";
import { DomainCards } from "../components/domain-cards";
import { Pagination } from "../components/pagination";
import { BackLink, NotFoundView } from "../components/ui";
import { browseHref, NO_FILTERS } from "../lib/browse";
import { categoryPath } from "../lib/categories";
import { displayDomainName, domainPagePath } from "../lib/domain-name";
import { openGraph } from "../lib/seo";
import { browseDomains } from "../server/catalog/browse.server";
import { findCategory } from "../server/catalog/categories.server";
import { siteOrigin } from "../server/catalog/landers.server";
import { env } from "../server/runtime/env.server";
import type { Route } from "./+types/category";

const PER_PAGE = 24;

export async function loader({ params, request }: Route.LoaderArgs) {
  const category = await findCategory(params.slug.toLowerCase());
  if (!category) return data({ siteName: env.SITE_NAME, category: null }, { status: 404 });
  const page = Number(new URL(request.url).searchParams.get("page") ?? 1);
  const listing = await browseDomains(NO_FILTERS, {
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    perPage: PER_PAGE,
    categoryId: category.id,
  });
  const origin = siteOrigin(request);
  return {
    siteName: env.SITE_NAME,
    category: { slug: category.slug, name: category.name },
    url: `${origin}${categoryPath(category.slug)}`,
    origin,
    ...listing,
  };
}

export default function CategoryPage({ loaderData }: Route.ComponentProps) {
  if (!loaderData.category) return <NotFoundView message="There is no such category." />;
  const { category, rows, total, page, pageCount } = loaderData;
  return (
    <main className="mx-auto w-full max-w-5xl px-5 py-10 sm:py-16">
      <BackLink to="/">Back to Domains</BackLink>
      <h1 className="mt-6 text-3xl font-bold tracking-tight sm:text-4xl">{category.name} domains for sale</h1>
      <p className="mt-2 text-slate-300">
        {total === 1 ? "1 name" : `${total.toLocaleString("en-US")} names`} in {category.name}.{" "}
        <Link
          to={`${browseHref({ ...NO_FILTERS, category: category.slug })}#domains`}
          className="text-blue-300 underline underline-offset-4"
        >
          Filter and sort them
        </Link>
      </p>
      <DomainCards rows={rows} className="mt-8" />
      <Pagination
        page={page}
        pageCount={pageCount}
        hrefFor={(target) => `${categoryPath(category.slug)}${target > 1 ? `?page=${target}` : ""}`}
        className="mt-10"
      />
    </main>
  );
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData?.category) {
    return [{ title: `Category not found | ${loaderData?.siteName ?? ""}` }, { name: "robots", content: "noindex" }];
  }
  const { siteName, category, url, origin, total, rows, page } = loaderData;
  const title = `${category.name} domains for sale | ${siteName}`;
  const description = `${total.toLocaleString("en-US")} premium ${category.name} domain ${total === 1 ? "name" : "names"} for sale at ${siteName}. See each guiding price and contact the owner directly.`;
  const tags = [{ title }, { name: "description", content: description }];
  if (page > 1) return tags;
  return [
    ...tags,
    { tagName: "link", rel: "canonical", href: url },
    ...openGraph({ type: "website", siteName, title, description, url }),
    // React Router writes this as JSON with <, > and & escaped, so no name can close the script tag.
    {
      "script:ld+json": {
        "@context": "https://schema.org",
        "@type": "ItemList",
        name: title,
        url,
        numberOfItems: total,
        itemListElement: rows.map((row, index) => ({
          "@type": "ListItem",
          position: index + 1,
          name: displayDomainName(row.domain_name),
          url: `${origin}${domainPagePath(row.domain_name)}`,
        })),
      },
    },
  ];
}
