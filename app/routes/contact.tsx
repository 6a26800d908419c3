import { Link } from "react-router";
import { LockIcon } from "../components/icons";
import { card, PageShell, primaryButton, secondaryButton } from "../components/ui";
import { env } from "../server/runtime/env.server";
import type { Route } from "./+types/contact";

export function loader() {
  return { siteName: env.SITE_NAME };
}

export default function ContactPage() {
  return (
    <PageShell>
      <section className={`${card} text-center`}>
        <LockIcon className="mx-auto h-12 w-12 text-blue-400" />
        <h1 className="mt-4 text-3xl font-semibold">Payment Required</h1>
        <p className="mt-4 text-slate-300">
          All inquiries go through our secure payment system. A small one-time fee ensures serious buyers and protects
          owners from spam.
        </p>
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
    { title: `Payment Required | ${loaderData?.siteName ?? ""}` },
    { name: "description", content: `Inquiries about ${params.domainName} go through our secure payment system.` },
  ];
}
