import type { InquiryPageView } from "../../server/inquiries/inquiry-page.server";

/** The inquiry's facts: what was paid and when, the reply deadline, and the status in words. */
export function InquirySummary({ view }: { view: InquiryPageView }) {
  const rows: [string, string][] = [
    ["Domain", view.domainName],
    [view.fee === "Free" || view.fee === "Paid with credit" ? "Inquiry fee" : "Fee paid", view.fee],
    ["Paid on", view.paidAt],
    ...(view.deadline ? ([["Reply deadline", view.deadline]] as [string, string][]) : []),
  ];
  return (
    <>
      <dl className="mt-6 grid gap-x-6 gap-y-3 sm:grid-cols-[max-content_1fr]">
        {rows.map(([term, value]) => (
          <div key={term} className="contents">
            <dt className="text-sm text-slate-400">{term}</dt>
            <dd className="break-words text-slate-100">{value}</dd>
          </div>
        ))}
        <dt className="text-sm text-slate-400">Status</dt>
        <dd>
          <span
            data-testid="inquiry-status"
            className="rounded-full bg-slate-800 px-3 py-1 text-sm font-medium text-slate-100"
          >
            {view.statusText}
          </span>
        </dd>
      </dl>
      {!view.open && (
        <p className="mt-6 rounded-lg border border-slate-700 bg-slate-950 p-4 font-medium text-slate-200">
          This inquiry is closed
        </p>
      )}
    </>
  );
}
