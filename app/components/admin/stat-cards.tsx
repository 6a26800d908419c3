import { Link } from "react-router";
import { formatUsd } from "../../lib/money";
import { Price } from "../domain-name";
import { LocalDate } from "./local-date";

export interface DeskNumbers {
  awaiting: number;
  nextDeadlineAt: string | null;
  nextDeadlineIn: string | null;
  fees: { receivedCents: number; refundedCents: number; netCents: number };
}

const cardClass = "rounded-2xl border border-slate-800 bg-slate-900/70 p-5";
const valueClass = "mt-2 text-2xl font-semibold xl:text-3xl";

/**
 * The Admin Panel's first row: what needs the admin now (inquiries awaiting a reply, the last 30
 * days' fees), then the spec's three cards. Cards wrap to the next line rather than squeeze a price.
 */
export function StatCards({
  desk,
  totalDomains,
  feeCents,
  totalValueCents,
}: {
  desk: DeskNumbers;
  totalDomains: number;
  feeCents: number;
  totalValueCents: number;
}) {
  const stats = [
    { label: "Total Domains", value: totalDomains.toLocaleString("en-US") },
    { label: "Inquiry Fee", value: formatUsd(feeCents) },
    { label: "Total Value", value: formatUsd(totalValueCents) },
  ];
  const { fees } = desk;
  return (
    <dl className="mt-8 grid grid-cols-[repeat(auto-fit,minmax(13rem,1fr))] gap-4">
      <div className={`${cardClass} ${desk.awaiting > 0 ? "border-blue-700" : ""}`}>
        <dt className="text-sm text-slate-300">Awaiting reply</dt>
        <dd className={valueClass} data-stat="Awaiting reply">
          <Link to="/admin/inquiries?status=awaiting" className="text-blue-300 underline-offset-4 hover:underline">
            {desk.awaiting.toLocaleString("en-US")}
            <span className="sr-only">{desk.awaiting === 1 ? " inquiry" : " inquiries"} awaiting reply</span>
          </Link>
        </dd>
        <dd className="mt-1 text-sm text-slate-300" data-stat="Next reply due">
          {desk.awaiting === 0 ? (
            "Nothing waiting"
          ) : desk.nextDeadlineAt ? (
            <>
              Next reply due {desk.nextDeadlineIn} (<LocalDate iso={desk.nextDeadlineAt} />)
            </>
          ) : (
            "No reply deadline"
          )}
        </dd>
      </div>
      <div className={cardClass}>
        <dt className="text-sm text-slate-300">Fees, last 30 days</dt>
        <dd className={valueClass} data-stat="Fees, last 30 days">
          <Price>{formatUsd(fees.netCents)}</Price>
        </dd>
        <dd className="mt-1 text-sm text-slate-300" data-stat="Fees detail">
          <Price>{formatUsd(fees.receivedCents)}</Price> received, <Price>{formatUsd(fees.refundedCents)}</Price>{" "}
          refunded
        </dd>
      </div>
      {stats.map((stat) => (
        <div key={stat.label} className={cardClass}>
          <dt className="text-sm text-slate-300">{stat.label}</dt>
          <dd className={valueClass} data-stat={stat.label}>
            {stat.label === "Total Domains" ? stat.value : <Price>{stat.value}</Price>}
          </dd>
        </div>
      ))}
    </dl>
  );
}
