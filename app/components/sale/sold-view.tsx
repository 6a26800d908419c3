import { Link } from "react-router";
import { DomainName } from "../domain-name";
import { card, PageShell, primaryButton } from "../ui";

/** A sold name's page: it says so and offers names like it. */
export function SoldView({ name, similarHtml }: { name: string; similarHtml: string }) {
  return (
    <PageShell>
      <section className={`${card} text-center`}>
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">
          <DomainName name={name} fit /> <span className="mt-2 block text-2xl text-slate-300">has been sold</span>
        </h1>
        <Link to="/#domains" className={`${primaryButton} mt-6`}>
          Browse Domains
        </Link>
      </section>
      {similarHtml ? (
        <section aria-labelledby="similar-heading" className={`${card} mt-6`}>
          <h2 id="similar-heading" className="text-lg font-semibold">
            More names like this
          </h2>
          <ul className="mt-4 grid gap-3 sm:grid-cols-2" dangerouslySetInnerHTML={{ __html: similarHtml }} />
        </section>
      ) : null}
    </PageShell>
  );
}
