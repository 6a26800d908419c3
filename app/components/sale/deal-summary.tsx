import { Form } from "react-router";
import { formatUsd } from "../../lib/money";
import { secondaryButton } from "../ui";
import type { DealPageView } from "../../server/sale/deal-page.server";

/** The deal's facts, the same on both sides' pages. */
export function DealSummary({ view }: { view: DealPageView }) {
  const paid = view.paidAt !== null;
  return (
    <>
      <div className="mt-6 space-y-1 text-slate-200">
        <p className="text-lg font-medium text-white">
          {`${view.status === "checkout" ? "Price" : "Deal agreed"}: ${formatUsd(view.priceCents)}`}
        </p>
        {view.feeCreditedCents > 0 ? <p>{`Inquiry fee credited: -${formatUsd(view.feeCreditedCents)}`}</p> : null}
        <p>{`${paid ? "Amount paid" : "Amount due"}: ${formatUsd(view.amountDueCents)}`}</p>
      </div>
      <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-slate-200">
        <dt className="text-slate-400">Status</dt>
        <dd data-deal-status className="font-medium text-white">
          {view.statusText}
        </dd>
        {view.payBy ? (
          <>
            <dt className="text-slate-400">Pay by</dt>
            <dd>{view.payBy}</dd>
          </>
        ) : null}
        {view.buyer ? (
          <>
            <dt className="text-slate-400">Buyer</dt>
            <dd className="break-words">
              {view.buyer.name} &lt;{view.buyer.email}&gt;
            </dd>
          </>
        ) : null}
        {view.paidAt ? (
          <>
            <dt className="text-slate-400">Paid</dt>
            <dd>{view.paidAt}</dd>
          </>
        ) : null}
        {view.transferDueAt && !view.transferSentAt ? (
          <>
            <dt className="text-slate-400">Transfer details due</dt>
            <dd>{view.transferDueAt}</dd>
          </>
        ) : null}
        {view.transferSentAt ? (
          <>
            <dt className="text-slate-400">Transfer details sent</dt>
            <dd>{view.transferSentAt}</dd>
          </>
        ) : null}
        {view.completedAt ? (
          <>
            <dt className="text-slate-400">Completed</dt>
            <dd>{view.completedAt}</dd>
          </>
        ) : null}
      </dl>
    </>
  );
}

/** "Cancel deal": either side, while the deal is agreed and unpaid. */
export function CancelDealForm() {
  return (
    <Form method="post" className="mt-4">
      <button type="submit" name="intent" value="cancel-deal" className={secondaryButton}>
        Cancel deal
      </button>
    </Form>
  );
}

export function DealNotice({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <p
      role="status"
      className="mt-4 rounded-lg border border-emerald-500/40 bg-emerald-950/50 px-4 py-3 text-emerald-100"
    >
      {text}
    </p>
  );
}

export function DealError({ text }: { text: string | null | undefined }) {
  if (!text) return null;
  return (
    <div role="alert" className="mt-4 rounded-lg border border-red-500/50 bg-red-950/60 px-4 py-3 text-red-100">
      {text}
    </div>
  );
}
