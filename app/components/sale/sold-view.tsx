import { Link } from "react-router";
import { DomainName } from "../domain-name";
import { card, PageShell, primaryButton } from "../ui";
import { SimilarNames } from "../similar-names";
import type { SimilarName } from "../../lib/seo";

export interface SoldPage {
  name: string;
  similar: SimilarName[];
  browseUrl: string | null;
}

/**
 * A sold name's page: it says so and offers names like it. `browseUrl` is the catalog ("/#domains"), the
 * operator's own on a sold name's lander, or null there when PUBLIC_URL does not say where it is.
 */
export function SoldView({ name, similar, browseUrl }: SoldPage) {
  return (
    <PageShell>
      <section className={`${card} text-center`}>
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">
          <DomainName name={name} fit /> <span className="mt-2 block text-2xl text-slate-300">has been sold</span>
        </h1>
        {browseUrl ? (
          <Link to={browseUrl} className={`${primaryButton} mt-6`}>
            Browse Domains
          </Link>
        ) : null}
      </section>
      <SimilarNames names={similar} />
    </PageShell>
  );
}
