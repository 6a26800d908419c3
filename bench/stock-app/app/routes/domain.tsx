import { data, Link, useLoaderData } from "react-router";

// The same page as the product's /domain/:domainName, rendered the usual React Router way: a loader
// (here from memory, which only flatters the baseline) and a component.
const LISTING: Record<string, { name: string; askingPriceCents: number }> = {};
const FEE_CENTS = 1999;
const card = "rounded-2xl border border-slate-800 bg-slate-900/70 p-6 shadow-xl";
const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

export function loader({ params }: { params: { domainName?: string } }) {
  const name = String(params.domainName ?? "").toLowerCase();
  const domain = LISTING[name] ?? { name: name.includes(".") ? name : `${name}.com`, askingPriceCents: 2_450_000 };
  if (!name) throw data(null, { status: 404 });
  return { siteName: "DomainVault", domain, feeCents: FEE_CENTS };
}

export default function DomainPage() {
  const { domain, feeCents } = useLoaderData<typeof loader>();
  const fee = usd.format(feeCents / 100);
  return (
    <main className="mx-auto w-full max-w-3xl px-5 py-10">
      <Link to="/" className="inline-flex items-center gap-2 text-slate-300 hover:text-white">
        Back to Domains
      </Link>
      <section className={`${card} mt-6 text-center`}>
        <h1 className="break-words text-4xl font-bold tracking-tight sm:text-5xl">{domain.name}</h1>
        <p className="mt-6 text-sm uppercase tracking-widest text-slate-300">Guiding Price</p>
        <p className="mt-1 text-4xl font-semibold text-blue-300">{usd.format(domain.askingPriceCents / 100)}</p>
        <p className="mt-4 text-slate-300">Premium domain available for acquisition</p>
      </section>
      <section className={`${card} mt-6 flex gap-4`}>
        <div>
          <h2 className="text-lg font-semibold">Direct Communication</h2>
          <p className="mt-1 text-slate-300">
            You can speak directly with the owner of {domain.name}: your message and contact details go straight to
            them.
          </p>
        </div>
      </section>
      <section className={`${card} mt-6 text-center`}>
        <p className="text-lg">
          Start your inquiry process with a one-time fee of <strong>{fee}</strong>
        </p>
        <p className="mt-2 text-sm text-slate-300">
          The fee grants you direct contact with the owner and ensures serious inquiries. If the owner does not respond,
          you get a full refund or free credit.
        </p>
        <Link
          to={`/payment/${domain.name.replace(/\.com$/, "")}`}
          className="mt-6 inline-flex rounded-lg bg-blue-600 px-5 py-2.5 text-lg font-medium text-white"
        >
          Start Inquiry ({fee})
        </Link>
      </section>
    </main>
  );
}

export function meta({ data: loaderData }: { data?: { domain: { name: string }; siteName: string } }) {
  return [{ title: `${loaderData?.domain.name ?? "Domain"} is for sale | ${loaderData?.siteName ?? ""}` }];
}
