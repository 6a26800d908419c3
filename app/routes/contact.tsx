import { data, Link } from "react-router";
import { DomainName } from "../components/domain-name";
import { LockIcon } from "../components/icons";
import { card, PageShell, primaryButton, secondaryButton } from "../components/ui";
import { domainPagePath, shortDomainName } from "../lib/domain-name";
import { findDomainByParam } from "../server/catalog/domains.server";
import { env } from "../server/runtime/env.server";
import type { Route } from "./+types/contact";

/**
 * The spec's static "Payment Required" page. A listed name is named, with links to its inquiry form and
 * its page; a name not listed keeps the page (404) without them.
 */
export async function loader({ params }: Route.LoaderArgs) {
  const domain = await findDomainByParam(params.domainName);
  if (!domain) return data({ siteName: env.SITE_NAME, domainName: null }, { status: 404 });
  return { siteName: env.SITE_NAME, domainName: domain.domain_name };
}

export default function ContactPage({ loaderData }: Route.ComponentProps) {
  const { domainName } = loaderData;
  return (
    <PageShell>
      <section className={`${card} text-center`}>
        <LockIcon className="mx-auto h-12 w-12 text-blue-400" />
        <h1 className="mt-4 text-3xl font-semibold">Payment Required</h1>
        <p className="mt-4 text-slate-300">
          All inquiries go through our secure payment system. A small one-time fee ensures serious buyers and protects
          owners from spam.
        </p>
        {domainName && (
          <>
            <p className="mt-6 text-lg">
              To contact the owner of{" "}
              <strong className="block text-white">
                <DomainName name={domainName} fit />
              </strong>
            </p>
            <Link
              to={`/payment/${encodeURIComponent(shortDomainName(domainName))}`}
              className={`${primaryButton} mt-4`}
            >
              Send an inquiry
            </Link>
            <p className="mt-2 text-sm">
              <Link to={domainPagePath(domainName)} className="text-blue-300 underline underline-offset-4">
                See the domain&apos;s page
              </Link>
            </p>
          </>
        )}
        <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
          <Link to="/#domains" className={primaryButton}>
            Browse Domains
          </Link>
          <Link to="/" className={secondaryButton}>
            Back to Home
          </Link>
        </div>
        <p className="mt-8 text-sm text-slate-300">Secure payments processed via Stripe</p>
      </section>
    </PageShell>
  );
}

export function meta({ loaderData, params }: Route.MetaArgs) {
  return [
    { title: `Payment Required: ${loaderData?.domainName ?? params.domainName} | ${loaderData?.siteName ?? ""}` },
    {
      name: "description",
      content: `Inquiries about ${loaderData?.domainName ?? params.domainName} go through our secure payment system.`,
    },
  ];
}
