import { data } from "react-router";
import { siteOrigin } from "../server/catalog/landers.server";
import { SITEMAP_HEADERS, sitemapPartCount, sitemapPartStream } from "../server/catalog/sitemap.server";
import type { Route } from "./+types/sitemap-part";

/** One part of a large portfolio's sitemap: /sitemaps/{n}.xml. */
export async function loader({ params, request }: Route.LoaderArgs) {
  const match = /^([1-9]\d{0,5})\.xml$/.exec(params.file);
  const part = match ? Number(match[1]) : 0;
  if (part < 1 || part > (await sitemapPartCount())) throw data(null, { status: 404 });
  return new Response(sitemapPartStream(siteOrigin(request), part), { headers: SITEMAP_HEADERS });
}
