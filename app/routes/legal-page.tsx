import { Markdown } from "../components/markdown";
import { BackLink, card, PageShell } from "../components/ui";
import { isLegalSlug, legalTitle } from "../lib/legal-pages";
import { legalPageText } from "../server/catalog/legal-pages.server";
import { env } from "../server/runtime/env.server";
import type { Route } from "./+types/legal-page";

/** /terms, /privacy and /refunds (app/routes.ts): the admin's text, or a default from the current settings. */
export async function loader({ request }: Route.LoaderArgs) {
  const slug = new URL(request.url).pathname.replace(/^\/|\/$/g, "");
  if (!isLegalSlug(slug)) throw new Response(null, { status: 404 });
  const { text } = await legalPageText(slug);
  return { siteName: env.SITE_NAME, title: legalTitle(slug), text };
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [];
  return [
    { title: `${loaderData.title} | ${loaderData.siteName}` },
    { name: "description", content: `${loaderData.title} of ${loaderData.siteName}.` },
  ];
}

export default function LegalPage({ loaderData }: Route.ComponentProps) {
  return (
    <PageShell>
      <BackLink to="/">Back to Home</BackLink>
      <article className={`${card} mt-6 wrap-anywhere`}>
        <h1 className="text-3xl font-semibold">{loaderData.title}</h1>
        <Markdown source={loaderData.text} />
      </article>
    </PageShell>
  );
}
