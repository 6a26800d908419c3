import { formatUsd } from "../../lib/money";
import { Price } from "../domain-name";
import { card } from "../ui";

export function StatCards({
  totalDomains,
  feeCents,
  totalValueCents,
}: {
  totalDomains: number;
  feeCents: number;
  totalValueCents: number;
}) {
  const stats = [
    { label: "Total Domains", value: totalDomains.toLocaleString("en-US") },
    { label: "Inquiry Fee", value: formatUsd(feeCents) },
    { label: "Total Value", value: formatUsd(totalValueCents) },
  ];
  return (
    <dl className="mt-8 grid gap-4 sm:grid-cols-3">
      {stats.map((stat) => (
        <div key={stat.label} className={card}>
          <dt className="text-sm text-slate-300">{stat.label}</dt>
          <dd className="mt-2 text-3xl font-semibold" data-stat={stat.label}>
            {stat.label === "Total Domains" ? stat.value : <Price>{stat.value}</Price>}
          </dd>
        </div>
      ))}
    </dl>
  );
}
