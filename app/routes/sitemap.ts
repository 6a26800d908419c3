import { siteOrigin } from "../server/catalog/landers.server";
import { SITEMAP_HEADERS, sitemapIndex, sitemapPartCount, sitemapPartStream } from "../server/catalog/sitemap.server";
import type { Route } from "./+types/sitemap";

/** Every domain page, streamed; beyond the protocol's 50,000 URLs per file, an index of parts. */
export async function loader({ request }: Route.LoaderArgs) {
  const origin = siteOrigin(request);
  const parts = await sitemapPartCount();
  if (parts === 1) return new Response(sitemapPartStream(origin, 1), { headers: SITEMAP_HEADERS });
  return new Response(sitemapIndex(origin, parts), { headers: SITEMAP_HEADERS });
}
