import { Link } from "react-router";
import { displayDomainName } from "../../lib/domain-name";
import { formatUsd } from "../../lib/money";
import type { OwnerDealRow } from "../../server/owners/owner-desk.server";
import { LocalDate } from "../admin/local-date";

const headClass = "py-2 pr-4";
const cellClass = "py-2 pr-4";

/** The deals made for the owner, newest first, each opening the owner's own deal page. */
export function OwnerDeals({ deals, total }: { deals: OwnerDealRow[]; total: number }) {
  return (
    <section aria-labelledby="owner-deals-heading" className="mt-10">
      <h2 id="owner-deals-heading" className="text-xl font-semibold">
        Deals
      </h2>
      {total > deals.length ? (
        <p className="mt-2 text-sm text-slate-300">{`The newest ${deals.length} of ${total}.`}</p>
      ) : null}
      {deals.length === 0 ? (
        <p className="mt-4 rounded-xl border border-slate-800 p-6 text-center text-slate-300">
          No deals yet: a buy now or an accepted offer on one of your names makes one.
        </p>
      ) : (
        <div className="mt-4 overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Your deals, newest first</caption>
            <thead className="text-slate-300">
              <tr>
                <th scope="col" className={headClass}>
                  Domain
                </th>
                <th scope="col" className={`${headClass} text-right`}>
                  Price
                </th>
                <th scope="col" className={`${headClass} text-right`}>
                  Fee credited
                </th>
                <th scope="col" className={`${headClass} text-right`}>
                  Amount paid
                </th>
                <th scope="col" className={headClass}>
                  Status
                </th>
                <th scope="col" className={headClass}>
                  Agreed
                </th>
                <th scope="col" className="py-2">
                  <span className="sr-only">Deal page</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {deals.map((deal) => (
                <tr key={deal.id} className="border-t border-slate-800" data-owner-deal={deal.domainName}>
                  <th scope="row" className={`${cellClass} font-medium wrap-anywhere`}>
                    {displayDomainName(deal.domainName)}
                  </th>
                  <td className={`${cellClass} text-right`}>{formatUsd(deal.priceCents)}</td>
                  <td className={`${cellClass} text-right`}>
                    {deal.feeCreditedCents ? `-${formatUsd(deal.feeCreditedCents)}` : "—"}
                  </td>
                  <td className={`${cellClass} text-right`}>
                    {deal.amountPaidCents === null ? "—" : formatUsd(deal.amountPaidCents)}
                  </td>
                  <td className={cellClass} data-owner-deal-status>
                    {deal.statusText}
                  </td>
                  <td className={`${cellClass} whitespace-nowrap`}>
                    <LocalDate iso={deal.createdAt} />
                  </td>
                  <td className="py-2">
                    <Link to={deal.href} className="text-blue-300 hover:underline">
                      Open<span className="sr-only">{` the deal for ${displayDomainName(deal.domainName)}`}</span>
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
