import { Link } from "react-router";
import { displayDomainName } from "../../lib/domain-name";
import { formatUsd } from "../../lib/money";
import type { OwnerDomainRow } from "../../server/owners/owner-desk.server";

/** The owner's names with their numbers; each name opens its funnel chart (and price form). */
export function OwnerDomains({ domains }: { domains: OwnerDomainRow[] }) {
  return (
    <section aria-labelledby="owner-domains-heading" className="mt-10">
      <h2 id="owner-domains-heading" className="text-xl font-semibold">
        Your domains
      </h2>
      {domains.length === 0 ? (
        <p className="mt-4 rounded-xl border border-slate-800 p-6 text-center text-slate-300">
          No domain on this site lists your email address as its owner.
        </p>
      ) : (
        <div className="mt-4 overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead className="text-slate-300">
              <tr>
                <th scope="col" className="py-2 pr-4">
                  Domain
                </th>
                <th scope="col" className="py-2 pr-4 text-right">
                  Price
                </th>
                <th scope="col" className="py-2 pr-4 text-right">
                  Views (30 days)
                </th>
                <th scope="col" className="py-2 pr-4 text-right">
                  Inquiries
                </th>
                <th scope="col" className="py-2 text-right">
                  Paid
                </th>
              </tr>
            </thead>
            <tbody>
              {domains.map((domain) => (
                <tr key={domain.id} className="border-t border-slate-800">
                  <th scope="row" className="py-2 pr-4 font-medium wrap-anywhere">
                    <Link to={`/owner/domains/${domain.id}`} className="text-blue-300 hover:underline">
                      {displayDomainName(domain.domain_name)}
                    </Link>
                  </th>
                  <td className="py-2 pr-4 text-right">{formatUsd(domain.asking_price_cents)}</td>
                  <td className="py-2 pr-4 text-right">{domain.views_30_days}</td>
                  <td className="py-2 pr-4 text-right">{domain.inquiries_started}</td>
                  <td className="py-2 text-right">{domain.inquiries_paid}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
