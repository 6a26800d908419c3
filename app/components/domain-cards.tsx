import { Link } from "react-router";
import { domainPagePath } from "../lib/domain-name";
import { formatUsd } from "../lib/money";
import { DomainName, Price } from "./domain-name";
import { card } from "./ui";

/** A grid of names for sale, each a link to its page with its guiding price. */
export function DomainCards({
  rows,
  className = "mt-4",
}: {
  rows: Array<{ id: number; domain_name: string; asking_price_cents: number }>;
  className?: string;
}) {
  return (
    <ul className={`${className} grid gap-4 sm:grid-cols-2 lg:grid-cols-3`}>
      {rows.map((domain) => (
        <li key={domain.id} className="min-w-0">
          <Link to={domainPagePath(domain.domain_name)} className={`${card} block transition hover:border-blue-500`}>
            <span className="block text-lg font-semibold">
              <DomainName name={domain.domain_name} fit />
            </span>
            <span className="mt-2 block text-sm text-slate-300">Guiding Price</span>
            <Price className="block text-xl font-semibold text-blue-300">{formatUsd(domain.asking_price_cents)}</Price>
          </Link>
        </li>
      ))}
    </ul>
  );
}
