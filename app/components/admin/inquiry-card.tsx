import { Form, Link } from "react-router";
import { displayDomainName } from "../../lib/domain-name";
import { replyMailto } from "../../lib/desk";
import { formatUsd } from "../../lib/money";
import type { InboxRow } from "../../server/admin/admin-inquiries.server";
import { card, primaryButton, secondaryButton } from "../ui";
import { useAdminHref, useReturnTo } from "./hooks";
import { InquiryAbout, InquiryFacts } from "../inquiry/inquiry-facts";
import { InquiryConversation, ReplyAsOwnerForm, type ReplyRefusal } from "./inquiry-conversation";
import { LocalDate } from "./local-date";
import { InboxSaleBlock, offerAwaitsAnswer } from "./inbox-sale";

function statusOf(inquiry: InboxRow): { label: string; className: string } {
  if (inquiry.status === "refunded") return { label: "Refunded", className: "bg-amber-900 text-amber-100" };
  if (inquiry.credited_at) return { label: "Credited", className: "bg-violet-900 text-violet-100" };
  if (inquiry.answered_at) return { label: "Answered", className: "bg-emerald-900 text-emerald-100" };
  return { label: "Awaiting answer", className: "bg-blue-900 text-blue-100" };
}

/** Free inquiries say so; one paid through the test provider says no money moved (none comes back on a refund). */
function amountText(inquiry: InboxRow): string {
  if (inquiry.provider === "credit") return "Paid with credit";
  if (inquiry.amount_cents <= 0) return "Free";
  const amount = formatUsd(inquiry.amount_cents);
  return inquiry.provider === "test" ? `${amount} (test payment, no real charge)` : amount;
}

const utcDay = new Intl.DateTimeFormat("en-US", { timeZone: "UTC", dateStyle: "medium" });

export function InquiryCard({
  inquiry,
  confirmingRefund = false,
  replyRefusal = null,
  offerRefusal = null,
}: {
  inquiry: InboxRow;
  confirmingRefund?: boolean;
  replyRefusal?: ReplyRefusal | null;
  /** A refused answer to this card's offer: the message and the counter-offer typed. */
  offerRefusal?: ReplyRefusal | null;
}) {
  const returnTo = useReturnTo();
  const href = useAdminHref();
  const status = statusOf(inquiry);
  // A free inquiry (fee 0) has nothing to refund: no button, no refund deadline.
  // Nor one paid with a credit: its silent owner gives the buyer a new credit, never money.
  const refundable =
    inquiry.status === "paid" && inquiry.amount_cents > 0 && inquiry.provider !== "credit" && !inquiry.credited_at;
  const details: Array<[string, React.ReactNode]> = [
    [
      "Email",
      <a href={`mailto:${inquiry.email}`} className="text-blue-300 hover:underline">
        {inquiry.email}
      </a>,
    ],
    ["Phone", inquiry.phone || "Not given"],
    ["Offer", inquiry.offerText],
    ["Amount", amountText(inquiry)],
    ["Paid", inquiry.paid_at ? <LocalDate iso={inquiry.paid_at} /> : "-"],
  ];
  if (inquiry.refunded_at) details.push(["Refunded", <LocalDate iso={inquiry.refunded_at} />]);
  return (
    <article aria-labelledby={`inquiry-${inquiry.id}`} className={card}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id={`inquiry-${inquiry.id}`} className="text-lg font-semibold wrap-anywhere">
            <InquiryAbout name={inquiry.name} domainName={inquiry.domain_name} />
          </h2>
        </div>
        <span className={`rounded-full px-3 py-1 text-sm font-medium ${status.className}`}>{status.label}</span>
      </div>
      <InquiryFacts details={details} message={inquiry.message} columns={6} />
      <InquiryConversation inquiry={inquiry} />
      {inquiry.status === "paid" && inquiry.last_error ? (
        <p className="mt-3 text-sm text-red-300">Last refund attempt: {inquiry.last_error}</p>
      ) : null}
      <RefundPromiseStatus inquiry={inquiry} />
      {/* One set of actions: the open offer's answers, the one reply form, then the fee's and email's. */}
      <InboxSaleBlock inquiry={inquiry} returnTo={returnTo} refusal={offerRefusal} />
      <ReplyAsOwnerForm
        inquiry={inquiry}
        returnTo={returnTo}
        refusal={replyRefusal}
        primary={!offerAwaitsAnswer(inquiry)}
      />
      {inquiry.status === "paid" && confirmingRefund && refundable ? (
        <RefundConfirmation inquiry={inquiry} returnTo={returnTo} />
      ) : (
        <div className="mt-4 flex flex-wrap items-center gap-3">
          {/* Only while it waits: after the deadline, or once credited, the server refuses it anyway. */}
          {inquiry.open && !inquiry.answered_at ? (
            <Form method="post">
              <input type="hidden" name="id" value={inquiry.id} />
              <input type="hidden" name="returnTo" value={returnTo} />
              <button type="submit" name="intent" value="answer" className={secondaryButton}>
                Mark answered
              </button>
            </Form>
          ) : null}
          {refundable ? (
            // Asks first: the link opens the confirmation (works without JavaScript), the refund is its form.
            <Link to={href({ refund: String(inquiry.id) })} preventScrollReset className={secondaryButton}>
              Refund {formatUsd(inquiry.amount_cents)}
            </Link>
          ) : null}
          <a
            href={replyMailto({
              email: inquiry.email,
              name: inquiry.name,
              domainName: displayDomainName(inquiry.domain_name),
              message: inquiry.message,
              sentOn: utcDay.format(new Date(inquiry.paid_at ?? inquiry.created_at)),
            })}
            className="text-sm text-blue-300 underline-offset-4 hover:underline"
          >
            Reply by email
          </a>
        </div>
      )}
    </article>
  );
}

/** The refund promise: the reply deadline while awaiting, and a failing automatic refund's retries. */
function RefundPromiseStatus({ inquiry }: { inquiry: InboxRow }) {
  if (inquiry.status !== "paid" || inquiry.answered_at || inquiry.credited_at || !inquiry.reply_deadline_at)
    return null;
  if (inquiry.amount_cents <= 0) return null;
  if (inquiry.refund_attempts > 0 && inquiry.refund_next_attempt_at) {
    const attempts = inquiry.refund_attempts === 1 ? "1 failed attempt" : `${inquiry.refund_attempts} failed attempts`;
    return (
      <p className="mt-3 text-sm text-red-300">
        {`Automatic refund: ${attempts}, next attempt `}
        <LocalDate iso={inquiry.refund_next_attempt_at} />
      </p>
    );
  }
  return (
    <p className="mt-3 text-sm text-slate-300">
      Reply due by <LocalDate iso={inquiry.reply_deadline_at} />, or the fee is refunded automatically
    </p>
  );
}

/** The refund's second step: what will happen, then Refund or Cancel. */
function RefundConfirmation({ inquiry, returnTo }: { inquiry: InboxRow; returnTo: string }) {
  const amount = formatUsd(inquiry.amount_cents);
  return (
    <Form method="post" className="mt-4 rounded-lg border border-amber-600 bg-amber-950/50 p-4">
      <p role="alert" className="text-amber-100">
        {`Refund ${amount} to ${inquiry.name}? The fee goes back to their card through the payment provider. This cannot be undone.`}
      </p>
      <input type="hidden" name="id" value={inquiry.id} />
      <input type="hidden" name="returnTo" value={returnTo} />
      <input type="hidden" name="confirmed" value="1" />
      <div className="mt-3 flex flex-wrap gap-3">
        <button type="submit" name="intent" value="refund" className={primaryButton}>
          {`Yes, refund ${amount}`}
        </button>
        <Link to={returnTo} preventScrollReset className={secondaryButton}>
          Cancel
        </Link>
      </div>
    </Form>
  );
}
