import { Link } from "react-router";
import { inquiryRate, INSIGHT_DAYS, type NameActivity, type PortfolioInsights } from "../../lib/insights";
import { formatUsd } from "../../lib/money";
import { DomainName, Price } from "../domain-name";
import { card } from "../ui";

// Server-rendered charts of a portfolio (issue 25 item 3), as the funnel chart draws them
// (app/components/admin/funnel-chart.tsx): inline SVG scaled to its box, labels in HTML under it so they
// keep their size on a phone, the exact numbers in a table beside the chart, no chart script.

const WIDTH = 600;
const HEIGHT = 160;

const dayFormat = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
const monthFormat = new Intl.DateTimeFormat("en-US", { month: "short", year: "numeric", timeZone: "UTC" });
const dayLabel = (day: string) => dayFormat.format(new Date(`${day}T00:00:00Z`));
const monthLabel = (month: string) => monthFormat.format(new Date(`${month}-01T00:00:00Z`));
const count = (value: number) => value.toLocaleString("en-US");

const tableClass = "w-full text-left text-sm";
const captionClass = "mb-2 text-left text-sm font-medium text-slate-200";
const headClass = "py-1 pr-4 font-medium text-slate-300";
const cellClass = "py-1 pr-4";

/**
 * A table's box that scrolls when the table is wider (or, for the daily numbers, longer) than the room:
 * focusable and named, so a keyboard can scroll it too.
 */
function ScrollBox({
  label,
  className = "",
  children,
}: {
  label: string;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <div
      role="region"
      aria-label={label}
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling region must be reachable by keyboard
      tabIndex={0}
      className={`overflow-auto focus-visible:outline-2 focus-visible:outline-blue-400 ${className}`}
    >
      {children}
    </div>
  );
}

/** A table's header row: the first column names the row (left), the others are numbers (right). */
function Head({ columns }: { columns: string[] }) {
  return (
    <thead>
      <tr>
        {columns.map((column, index) => (
          <th key={column} scope="col" className={index === 0 ? headClass : `${headClass} text-right`}>
            {column}
          </th>
        ))}
      </tr>
    </thead>
  );
}

function Empty({ children, name }: { children: React.ReactNode; name: string }) {
  return (
    <p className="mt-4 rounded-xl border border-slate-800 p-6 text-center text-slate-300" data-insights-empty={name}>
      {children}
    </p>
  );
}

/** The chart's first and last labels as HTML, so they keep their size when the chart shrinks. */
function EndLabels({ first, last }: { first: string; last: string }) {
  return (
    <div aria-hidden="true" className="mt-1 flex justify-between text-xs text-slate-300">
      <span>{first}</span>
      <span>{last}</span>
    </div>
  );
}

function FeesSection({ insights }: { insights: PortfolioInsights }) {
  const { months, credits } = insights;
  const net = months.reduce((sum, month) => sum + month.netCents, 0);
  const creditCount = months.reduce((sum, month) => sum + month.creditCount, 0);
  const active = months.some((month) => month.receivedCents > 0 || month.creditCount > 0);
  const peak = Math.max(1, ...months.map((month) => Math.max(month.netCents, month.creditCents)));
  const slot = WIDTH / months.length;
  const first = monthLabel(months[0]!.month);
  const last = monthLabel(months[months.length - 1]!.month);
  const summary =
    `Fees received per month from ${first} to ${last}, net of refunds: ${formatUsd(net)} in total` +
    (credits ? `; ${count(creditCount)} paid with a credit.` : ".");
  return (
    <section aria-labelledby="insights-fees" className={card} data-insights="fees">
      <h2 id="insights-fees" className="text-xl font-semibold">
        Fees received
      </h2>
      <p className="mt-1 text-sm text-slate-300">
        The last 12 months by the month each inquiry was paid; refunded fees are taken off.
      </p>
      {active ? (
        <div className="mt-4 grid gap-6 lg:grid-cols-2 [&>*]:min-w-0">
          <figure>
            <svg viewBox={`0 0 ${WIDTH} ${HEIGHT + 4}`} className="h-auto w-full" role="img" aria-label={summary}>
              <line x1="0" y1={HEIGHT} x2={WIDTH} y2={HEIGHT} className="stroke-slate-600" strokeWidth="1" />
              {months.map((month, index) => {
                const width = credits ? (slot - 8) / 2 : slot - 8;
                const height = Math.round((Math.max(0, month.netCents) / peak) * (HEIGHT - 10));
                const creditHeight = Math.round((month.creditCents / peak) * (HEIGHT - 10));
                const x = index * slot + 4;
                return (
                  <g key={month.month} data-month={month.month} data-net-cents={month.netCents}>
                    <title>{`${monthLabel(month.month)}: ${formatUsd(month.netCents)} net${credits ? `, ${month.creditCount} paid with a credit` : ""}`}</title>
                    <rect
                      x={x}
                      y={HEIGHT - height}
                      width={width}
                      height={Math.max(height, month.netCents > 0 ? 1 : 0)}
                      rx="2"
                      className="fill-emerald-400"
                    />
                    {credits ? (
                      <rect
                        x={x + width}
                        y={HEIGHT - creditHeight}
                        width={width}
                        height={Math.max(creditHeight, month.creditCount > 0 ? 1 : 0)}
                        rx="2"
                        className="fill-amber-300"
                      />
                    ) : null}
                  </g>
                );
              })}
            </svg>
            <EndLabels first={first} last={last} />
            <figcaption className="mt-2 flex flex-wrap gap-4 text-sm text-slate-300">
              <span>
                <span aria-hidden="true" className="mr-1 inline-block h-3 w-3 rounded-sm bg-emerald-400" />
                In money, net: <strong data-insights-total="net">{formatUsd(net)}</strong>
              </span>
              {credits ? (
                <span>
                  <span aria-hidden="true" className="mr-1 inline-block h-3 w-3 rounded-sm bg-amber-300" />
                  In credit: <strong data-insights-total="credit">{count(creditCount)}</strong>
                </span>
              ) : null}
            </figcaption>
          </figure>
          <ScrollBox label="Fees per month, table">
            <table className={tableClass} data-insights-table="fees">
              <caption className={captionClass}>Fees per month</caption>
              <Head columns={["Month", "Received", "Refunded", "Net", ...(credits ? ["In credit"] : [])]} />
              <tbody>
                {[...months].reverse().map((month) => (
                  <tr key={month.month} className="border-t border-slate-800" data-month-row={month.month}>
                    <th scope="row" className={`${cellClass} font-normal whitespace-nowrap`}>
                      {monthLabel(month.month)}
                    </th>
                    <td className={`${cellClass} text-right`}>
                      <Price>{formatUsd(month.receivedCents)}</Price>
                    </td>
                    <td className={`${cellClass} text-right`}>
                      <Price>{formatUsd(month.refundedCents)}</Price>
                    </td>
                    <td className={`${cellClass} text-right`}>
                      <Price>{formatUsd(month.netCents)}</Price>
                    </td>
                    {credits ? (
                      <td className={`${cellClass} text-right whitespace-nowrap`}>
                        {month.creditCount} (<Price>{formatUsd(month.creditCents)}</Price>)
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollBox>
        </div>
      ) : (
        <Empty name="fees">No fees in the last 12 months</Empty>
      )}
    </section>
  );
}

function SalesSection({ insights }: { insights: PortfolioInsights }) {
  const { sales: months } = insights;
  const sales = months.reduce((sum, month) => sum + month.sales, 0);
  const revenue = months.reduce((sum, month) => sum + month.revenueCents, 0);
  const peak = Math.max(1, ...months.map((month) => month.revenueCents));
  const slot = WIDTH / months.length;
  const first = monthLabel(months[0]!.month);
  const last = monthLabel(months[months.length - 1]!.month);
  const summary = `Sales per month from ${first} to ${last}: ${count(sales)} ${sales === 1 ? "sale" : "sales"}, ${formatUsd(revenue)} in revenue.`;
  return (
    <section aria-labelledby="insights-sales" className={card} data-insights="sales">
      <h2 id="insights-sales" className="text-xl font-semibold">
        Sales and revenue
      </h2>
      <p className="mt-1 text-sm text-slate-300">
        The last 12 months by the month each deal was paid: the names sold and the sum of their prices; refunded deals
        are left out.
      </p>
      {sales > 0 ? (
        <div className="mt-4 grid gap-6 lg:grid-cols-2 [&>*]:min-w-0">
          <figure>
            <svg viewBox={`0 0 ${WIDTH} ${HEIGHT + 4}`} className="h-auto w-full" role="img" aria-label={summary}>
              <line x1="0" y1={HEIGHT} x2={WIDTH} y2={HEIGHT} className="stroke-slate-600" strokeWidth="1" />
              {months.map((month, index) => {
                const height = Math.round((month.revenueCents / peak) * (HEIGHT - 10));
                return (
                  <rect
                    key={month.month}
                    data-month={month.month}
                    data-revenue-cents={month.revenueCents}
                    x={index * slot + 4}
                    y={HEIGHT - height}
                    width={slot - 8}
                    height={Math.max(height, month.sales > 0 ? 1 : 0)}
                    rx="2"
                    className="fill-violet-400"
                  >
                    <title>{`${monthLabel(month.month)}: ${month.sales} ${month.sales === 1 ? "sale" : "sales"}, ${formatUsd(month.revenueCents)}`}</title>
                  </rect>
                );
              })}
            </svg>
            <EndLabels first={first} last={last} />
            <figcaption className="mt-2 flex flex-wrap gap-4 text-sm text-slate-300">
              <span>
                <span aria-hidden="true" className="mr-1 inline-block h-3 w-3 rounded-sm bg-violet-400" />
                Revenue: <strong data-insights-total="revenue">{formatUsd(revenue)}</strong>
              </span>
              <span>
                Sales: <strong data-insights-total="sales">{count(sales)}</strong>
              </span>
            </figcaption>
          </figure>
          <ScrollBox label="Sales per month, table">
            <table className={tableClass} data-insights-table="sales">
              <caption className={captionClass}>Sales per month</caption>
              <Head columns={["Month", "Sales", "Revenue"]} />
              <tbody>
                {[...months].reverse().map((month) => (
                  <tr key={month.month} className="border-t border-slate-800" data-month-row={month.month}>
                    <th scope="row" className={`${cellClass} font-normal whitespace-nowrap`}>
                      {monthLabel(month.month)}
                    </th>
                    <td className={`${cellClass} text-right`}>{count(month.sales)}</td>
                    <td className={`${cellClass} text-right`}>
                      <Price>{formatUsd(month.revenueCents)}</Price>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollBox>
        </div>
      ) : (
        <Empty name="sales">No sales in the last 12 months</Empty>
      )}
    </section>
  );
}

function ActivitySection({ insights }: { insights: PortfolioInsights }) {
  const { days } = insights;
  const views = days.reduce((sum, day) => sum + day.views, 0);
  const paid = days.reduce((sum, day) => sum + day.paid, 0);
  const highest = Math.max(0, ...days.map((day) => day.views));
  const peak = Math.max(1, highest);
  const mostPaid = Math.max(1, ...days.map((day) => day.paid));
  const slot = WIDTH / days.length;
  const first = dayLabel(days[0]!.day);
  const last = dayLabel(days[days.length - 1]!.day);
  // Paid inquiries as a line over the bars, on their own scale (the top fifth of the chart is theirs).
  const line = days
    .map((day, index) => `${(index * slot + slot / 2).toFixed(1)},${(34 - (day.paid / mostPaid) * 28).toFixed(1)}`)
    .join(" ");
  const activeDays = [...days].reverse().filter((day) => day.views > 0 || day.paid > 0);
  const summary = `Views per day from ${first} to ${last}: ${count(views)} in total, at most ${count(highest)} a day; ${count(paid)} paid inquiries.`;
  return (
    <section aria-labelledby="insights-activity" className={card} data-insights="activity">
      <h2 id="insights-activity" className="text-xl font-semibold">
        Views and paid inquiries
      </h2>
      <p className="mt-1 text-sm text-slate-300">The last {INSIGHT_DAYS} days, by UTC day.</p>
      {activeDays.length > 0 ? (
        <div className="mt-4 grid gap-6 lg:grid-cols-2 [&>*]:min-w-0">
          <figure>
            <svg viewBox={`0 0 ${WIDTH} ${HEIGHT + 4}`} className="h-auto w-full" role="img" aria-label={summary}>
              <line x1="0" y1={HEIGHT} x2={WIDTH} y2={HEIGHT} className="stroke-slate-600" strokeWidth="1" />
              {days.map((day, index) => {
                const height = Math.round((day.views / peak) * (HEIGHT - 44));
                return (
                  <rect
                    key={day.day}
                    data-day={day.day}
                    data-views={day.views}
                    data-paid={day.paid}
                    x={index * slot + 1}
                    y={HEIGHT - height}
                    width={Math.max(1, slot - 2)}
                    height={Math.max(height, day.views > 0 ? 1 : 0)}
                    className="fill-blue-500"
                  >
                    <title>{`${dayLabel(day.day)}: ${day.views} views, ${day.paid} paid`}</title>
                  </rect>
                );
              })}
              {paid > 0 ? <polyline points={line} fill="none" strokeWidth="2" className="stroke-emerald-400" /> : null}
            </svg>
            <EndLabels first={first} last={last} />
            <figcaption className="mt-2 flex flex-wrap gap-4 text-sm text-slate-300">
              <span>
                <span aria-hidden="true" className="mr-1 inline-block h-3 w-3 rounded-sm bg-blue-500" />
                Views: <strong data-insights-total="views">{count(views)}</strong>
              </span>
              <span>
                <span aria-hidden="true" className="mr-1 inline-block h-1 w-3 bg-emerald-400 align-middle" />
                Paid inquiries: <strong data-insights-total="paid">{count(paid)}</strong>
              </span>
            </figcaption>
          </figure>
          <ScrollBox label="Daily numbers, table" className="max-h-96">
            <table className={tableClass} data-insights-table="days">
              <caption className={captionClass}>Days with views or paid inquiries, newest first</caption>
              <Head columns={["Day", "Views", "Paid"]} />
              <tbody>
                {activeDays.map((day) => (
                  <tr key={day.day} className="border-t border-slate-800" data-day-row={day.day}>
                    <th scope="row" className={`${cellClass} font-normal whitespace-nowrap`}>
                      {dayLabel(day.day)}
                    </th>
                    <td className={`${cellClass} text-right`}>{count(day.views)}</td>
                    <td className={`${cellClass} text-right`}>{count(day.paid)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollBox>
        </div>
      ) : (
        <Empty name="activity">No views in the last {INSIGHT_DAYS} days</Empty>
      )}
    </section>
  );
}

function NameCell({ name, href }: { name: NameActivity; href?: (id: number) => string }) {
  return (
    <th scope="row" className={`${cellClass} font-normal`}>
      {href ? (
        <Link to={href(name.id)} className="text-blue-300 underline-offset-4 hover:underline">
          <DomainName name={name.domainName} />
        </Link>
      ) : (
        <DomainName name={name.domainName} />
      )}
    </th>
  );
}

function MostViewedSection({ names, href }: { names: NameActivity[]; href?: (id: number) => string }) {
  const peak = Math.max(1, ...names.map((name) => name.views));
  return (
    <section aria-labelledby="insights-most-viewed" className={card} data-insights="most-viewed">
      <h2 id="insights-most-viewed" className="text-xl font-semibold">
        Most viewed names
      </h2>
      <p className="mt-1 text-sm text-slate-300">
        The {names.length > 1 ? names.length : ""} names seen most in the last {INSIGHT_DAYS} days, with the share of
        views that led to a paid inquiry.
      </p>
      {names.length > 0 ? (
        <ScrollBox label="Most viewed names, table" className="mt-4">
          <table className={tableClass} data-insights-table="most-viewed">
            <caption className="sr-only">Most viewed names in the last {INSIGHT_DAYS} days</caption>
            <Head columns={["Name", "Views", "Inquiries", "Rate"]} />
            <tbody>
              {names.map((name) => (
                <tr key={name.id} className="border-t border-slate-800" data-name-row={name.domainName}>
                  <NameCell name={name} href={href} />
                  <td className={`${cellClass} text-right`}>
                    {/* A bar as long as the views, in CSS: the number beside it is the value. */}
                    <span className="flex items-center justify-end gap-2">
                      <span
                        aria-hidden="true"
                        className="hidden h-2 rounded-sm bg-blue-500 sm:inline-block"
                        style={{ width: `${Math.max(2, Math.round((name.views / peak) * 96))}px` }}
                      />
                      {count(name.views)}
                    </span>
                  </td>
                  <td className={`${cellClass} text-right`}>{count(name.inquiries)}</td>
                  <td className={`${cellClass} text-right whitespace-nowrap`}>{inquiryRate(name)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      ) : (
        <Empty name="most-viewed">No views in the last {INSIGHT_DAYS} days</Empty>
      )}
    </section>
  );
}

function NoInquirySection({ names, href }: { names: NameActivity[]; href?: (id: number) => string }) {
  return (
    <section aria-labelledby="insights-no-inquiry" className={card} data-insights="no-inquiry">
      <h2 id="insights-no-inquiry" className="text-xl font-semibold">
        Viewed, but no inquiry
      </h2>
      <p className="mt-1 text-sm text-slate-300">
        Names seen in the last {INSIGHT_DAYS} days that nobody paid to ask about: candidates for a lower price. Most
        viewed first, at most 20.
      </p>
      {names.length > 0 ? (
        <ScrollBox label="Names without an inquiry, table" className="mt-4">
          <table className={tableClass} data-insights-table="no-inquiry">
            <caption className="sr-only">Names with views but no paid inquiry in the last {INSIGHT_DAYS} days</caption>
            <Head columns={["Name", "Views", "Asking price"]} />
            <tbody>
              {names.map((name) => (
                <tr key={name.id} className="border-t border-slate-800" data-name-row={name.domainName}>
                  <NameCell name={name} href={href} />
                  <td className={`${cellClass} text-right`}>{count(name.views)}</td>
                  <td className={`${cellClass} text-right`}>
                    <Price>{formatUsd(name.askingPriceCents)}</Price>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      ) : (
        <Empty name="no-inquiry">Every name seen in the last {INSIGHT_DAYS} days had a paid inquiry</Empty>
      )}
    </section>
  );
}

/**
 * The insights of a portfolio (the whole site's or one owner's). `nameHref` links each name (the
 * admin's domain page); without it names are plain text.
 */
export function PortfolioInsightsView({
  insights,
  nameHref,
}: {
  insights: PortfolioInsights;
  nameHref?: (id: number) => string;
}) {
  return (
    <div className="mt-6 grid gap-6 [&>*]:min-w-0" data-portfolio-insights>
      <FeesSection insights={insights} />
      <SalesSection insights={insights} />
      <ActivitySection insights={insights} />
      <MostViewedSection names={insights.mostViewed} href={nameHref} />
      <NoInquirySection names={insights.noInquiry} href={nameHref} />
    </div>
  );
}
