import { data, Link } from "react-router";
import { ChatIcon } from "../components/icons";
import { BackLink, card, NotFoundView, PageShell, primaryButton } from "../components/ui";
import { useLiveFee } from "../components/use-live-fee";
import { shortDomainName } from "../lib/domain-name";
import { formatUsd } from "../lib/money";
import { findDomainByParam } from "../server/domains.server";
import { env } from "../server/env.server";
import { getInquiryFeeCents } from "../server/settings.server";
import type { Route } from "./+types/domain";

export const NOT_FOUND_TEXT = "The domain you're looking for doesn't exist.";

export async function loader({ params }: Route.LoaderArgs) {
  const domain = findDomainByParam(params.domainName);
  const siteName = env.SITE_NAME;
  if (!domain) return data({ siteName, domain: null, feeCents: 0 }, { status: 404 });
  return {
    siteName,
    domain: { name: domain.domain_name, askingPriceCents: domain.asking_price_cents },
    feeCents: getInquiryFeeCents(),
  };
}

export default function DomainPage({ loaderData }: Route.ComponentProps) {
  const { domain } = loaderData;
  const feeCents = useLiveFee(loaderData.feeCents);
  if (!domain) return <NotFoundView message={NOT_FOUND_TEXT} />;
  const fee = formatUsd(feeCents);
  return (
    <PageShell>
      <BackLink to="/">Back to Domains</BackLink>
      <section className={`${card} mt-6 text-center`}>
        <h1 className="break-words text-4xl font-bold tracking-tight sm:text-5xl">{domain.name}</h1>
        <p className="mt-6 text-sm uppercase tracking-widest text-slate-300">Guiding Price</p>
        <p className="mt-1 text-4xl font-semibold text-blue-300">{formatUsd(domain.askingPriceCents)}</p>
        <p className="mt-4 text-slate-300">Premium domain available for acquisition</p>
      </section>
      <section className={`${card} mt-6 flex gap-4`}>
        <ChatIcon className="h-8 w-8 shrink-0 text-blue-400" />
        <div>
          <h2 className="text-lg font-semibold">Direct Communication</h2>
          <p className="mt-1 text-slate-300">
            You can speak directly with the owner of {domain.name}: your message and contact details go straight to them.
          </p>
        </div>
      </section>
      <section className={`${card} mt-6 text-center`}>
        <p className="text-lg">
          Start your inquiry process with a one-time fee of <strong data-fee>{fee}</strong>
        </p>
        <p className="mt-2 text-sm text-slate-300">
          The fee grants you direct contact with the owner and ensures serious inquiries. If the owner does not respond, you
          get a full refund or free credit.
        </p>
        <Link to={`/payment/${shortDomainName(domain.name)}`} className={`${primaryButton} mt-6 text-lg`}>
          Start Inquiry ({fee})
        </Link>
      </section>
    </PageShell>
  );
}

export function meta({ loaderData }: Route.MetaArgs) {
  const domain = loaderData?.domain;
  const siteName = loaderData?.siteName ?? "";
  if (!domain) return [{ title: `Domain not found | ${siteName}` }, { name: "robots", content: "noindex" }];
  const price = formatUsd(domain.askingPriceCents);
  return [
    { title: `${domain.name} is for sale | ${siteName}` },
    { name: "description", content: `${domain.name} is for sale. Guiding price ${price}. Contact the owner directly.` },
  ];
}
