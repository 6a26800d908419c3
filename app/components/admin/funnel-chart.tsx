import { FUNNEL_DAYS, type FunnelDay } from "../../lib/funnel";
import { inquiryRate } from "../../lib/insights";
import { card } from "../ui";

const WIDTH = 600;
const HEIGHT = 160;
const SLOT = WIDTH / 30;

// One formatter for every label (toLocaleDateString with options builds a new one per call).
const dayFormat = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });

function dayLabel(day: string): string {
  return dayFormat.format(new Date(`${day}T00:00:00Z`));
}

/**
 * Page views per day as inline SVG bars (no chart library), with inquiries started and paid as dots
 * above their day; the same numbers are in a table for screen readers and for reading exact values.
 */
export function FunnelChart({ days }: { days: FunnelDay[] }) {
  const highest = Math.max(0, ...days.map((day) => day.views));
  const peak = Math.max(1, highest); // the scale; the caption says the real highest day, 0 included
  const totalViews = days.reduce((sum, day) => sum + day.views, 0);
  const first = days[0]?.day ?? "";
  const last = days[days.length - 1]?.day ?? "";
  const started = days.reduce((sum, day) => sum + day.started, 0);
  const paid = days.reduce((sum, day) => sum + day.paid, 0);
  // The daily table lists only days with something in them; 30 rows of zeros hid the ones that count.
  const activeDays = [...days].reverse().filter((day) => day.views > 0 || day.started > 0 || day.paid > 0);
  if (activeDays.length === 0) {
    return (
      <p className="mt-4 rounded-xl border border-slate-800 p-6 text-center text-slate-300" data-funnel-empty>
        No views yet
      </p>
    );
  }
  const summary = `Page views per day from ${dayLabel(first)} to ${dayLabel(last)}: ${totalViews.toLocaleString("en-US")} in total, at most ${highest.toLocaleString("en-US")} a day.`;
  return (
    <figure className="mt-4">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT + 4}`} className="h-auto w-full" role="img" aria-label={summary}>
        <line x1="0" y1={HEIGHT} x2={WIDTH} y2={HEIGHT} className="stroke-slate-600" strokeWidth="1" />
        {days.map((day, index) => {
          const height = Math.round((day.views / peak) * (HEIGHT - 20));
          const x = index * SLOT + 2;
          return (
            <g key={day.day} data-day={day.day} data-views={day.views}>
              <title>{`${dayLabel(day.day)}: ${day.views} views, ${day.started} started, ${day.paid} paid`}</title>
              <rect
                x={x}
                y={HEIGHT - height}
                width={SLOT - 4}
                height={Math.max(height, day.views > 0 ? 1 : 0)}
                rx="2"
                className="fill-blue-500"
              />
              {day.started > 0 ? <circle cx={x + (SLOT - 4) / 2} cy="8" r="3" className="fill-amber-300" /> : null}
              {day.paid > 0 ? <circle cx={x + (SLOT - 4) / 2} cy="16" r="3" className="fill-emerald-400" /> : null}
            </g>
          );
        })}
      </svg>
      {/* The dates under the chart as HTML, so they keep their size when the chart shrinks on a phone. */}
      <div aria-hidden="true" className="mt-1 flex justify-between text-xs text-slate-300" data-funnel-dates>
        <span>{dayLabel(first)}</span>
        <span>{dayLabel(last)}</span>
      </div>
      <figcaption className="mt-2 flex flex-wrap gap-4 text-sm text-slate-300">
        <span>
          <span aria-hidden="true" className="mr-1 inline-block h-3 w-3 rounded-sm bg-blue-500" />
          Views (highest day: {highest.toLocaleString("en-US")})
        </span>
        <span>
          <span aria-hidden="true" className="mr-1 inline-block h-3 w-3 rounded-full bg-amber-300" />
          Started in 30 days: <strong data-funnel-count="started">{started.toLocaleString("en-US")}</strong>
        </span>
        <span>
          <span aria-hidden="true" className="mr-1 inline-block h-3 w-3 rounded-full bg-emerald-400" />
          Paid in 30 days: <strong data-funnel-count="paid">{paid.toLocaleString("en-US")}</strong>
        </span>
      </figcaption>
      <details className="mt-4">
        <summary className="cursor-pointer text-sm text-slate-200">Daily numbers</summary>
        <table className="mt-2 w-full max-w-md text-left text-sm">
          <thead className="text-slate-300">
            <tr>
              <th scope="col" className="py-1 pr-4 font-medium">
                Day
              </th>
              <th scope="col" className="py-1 pr-4 font-medium">
                Views
              </th>
              <th scope="col" className="py-1 pr-4 font-medium">
                Started
              </th>
              <th scope="col" className="py-1 font-medium">
                Paid
              </th>
            </tr>
          </thead>
          <tbody>
            {activeDays.map((day) => (
              <tr key={day.day} className="border-t border-slate-800">
                <th scope="row" className="py-1 pr-4 font-normal">
                  {dayLabel(day.day)}
                </th>
                <td className="py-1 pr-4">{day.views}</td>
                <td className="py-1 pr-4">{day.started}</td>
                <td className="py-1">{day.paid}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

/** A domain's funnel: its totals as cards (with the views-to-inquiries rate) and its last FUNNEL_DAYS days. */
export function FunnelSection({
  totals,
  days,
}: {
  totals: { views: number; inquiries_started: number; inquiries_paid: number };
  days: FunnelDay[];
}) {
  const conversion = inquiryRate({ views: totals.views, inquiries: totals.inquiries_started });
  const stats = [
    { label: "Page views", value: totals.views.toLocaleString("en-US") },
    { label: "Inquiries started", value: totals.inquiries_started.toLocaleString("en-US") },
    { label: "Inquiries paid", value: totals.inquiries_paid.toLocaleString("en-US") },
    { label: "Views to inquiries", value: conversion },
  ];
  return (
    <section aria-labelledby="funnel-heading" className="mt-8">
      <h2 id="funnel-heading" className="text-xl font-semibold">
        Funnel
      </h2>
      <dl className="mt-4 grid gap-4 sm:grid-cols-4">
        {stats.map((stat) => (
          <div key={stat.label} className={card}>
            <dt className="text-sm text-slate-300">{stat.label}</dt>
            <dd className="mt-2 text-3xl font-semibold" data-stat={stat.label}>
              {stat.value}
            </dd>
          </div>
        ))}
      </dl>
      <h3 className="mt-8 text-lg font-semibold">Last {FUNNEL_DAYS} days</h3>
      <FunnelChart days={days} />
    </section>
  );
}
