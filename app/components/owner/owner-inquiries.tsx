import { Form, Link } from "react-router";
import type { InboxRow } from "../../server/admin/admin-inquiries.server";
import { InquiryConversation, ReplyAsOwnerForm, type ReplyRefusal } from "../admin/inquiry-conversation";
import { InboxSaleBlock, offerAwaitsAnswer } from "../admin/inbox-sale";
import { InquiryAbout, InquiryFacts } from "../inquiry/inquiry-facts";
import { LocalDate } from "../admin/local-date";
import { card, secondaryButton } from "../ui";

/** The owner's inquiries with their conversations, the reply form and "I have replied". */
export function OwnerInquiries({
  inquiries,
  total,
  refusal,
  offerRefusal,
}: {
  inquiries: InboxRow[];
  total: number;
  refusal: ReplyRefusal | null;
  /** A refused answer to an offer: its card shows why and keeps the amount. */
  offerRefusal: ReplyRefusal | null;
}) {
  return (
    <section aria-labelledby="owner-inquiries-heading" className="mt-10">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h2 id="owner-inquiries-heading" className="text-xl font-semibold">
          Your inquiries
        </h2>
        {/* A file download, not a page: a plain link (reloadDocument) in both modes. */}
        <Link to="/owner/export/inquiries.csv" reloadDocument className="text-blue-300 hover:underline">
          Download inquiries (CSV)
        </Link>
      </div>
      {total > inquiries.length ? (
        <p className="mt-2 text-sm text-slate-300">{`The newest ${inquiries.length} of ${total}; the CSV has them all.`}</p>
      ) : null}
      {inquiries.length === 0 ? (
        <p className="mt-4 rounded-xl border border-slate-800 p-6 text-center text-slate-300">No paid inquiries yet.</p>
      ) : (
        <div className="mt-4 flex flex-col gap-4">
          {inquiries.map((inquiry) => (
            <OwnerInquiryCard
              key={inquiry.id}
              inquiry={inquiry}
              refusal={refusal?.id === inquiry.id ? refusal : null}
              offerRefusal={offerRefusal?.id === inquiry.id ? offerRefusal : null}
            />
          ))}
        </div>
      )}
    </section>
  );
}

function OwnerInquiryCard({
  inquiry,
  refusal,
  offerRefusal,
}: {
  inquiry: InboxRow;
  refusal: ReplyRefusal | null;
  offerRefusal: ReplyRefusal | null;
}) {
  const details: Array<[string, React.ReactNode]> = [
    ["Email", inquiry.email],
    ["Phone", inquiry.phone || "Not given"],
    ["Offer", inquiry.offerText],
    ["Paid", inquiry.paid_at ? <LocalDate iso={inquiry.paid_at} /> : "-"],
    ["Status", inquiry.statusText],
  ];
  return (
    <article aria-labelledby={`owner-inquiry-${inquiry.id}`} className={card}>
      <h3 id={`owner-inquiry-${inquiry.id}`} className="text-lg font-semibold wrap-anywhere">
        <InquiryAbout name={inquiry.name} domainName={inquiry.domain_name} />
      </h3>
      <InquiryFacts details={details} message={inquiry.message} columns={5} />
      <InquiryConversation inquiry={inquiry} />
      <InboxSaleBlock inquiry={inquiry} returnTo="/owner" refusal={offerRefusal} />
      <ReplyAsOwnerForm inquiry={inquiry} returnTo="/owner" refusal={refusal} primary={!offerAwaitsAnswer(inquiry)} />
      {inquiry.open && !inquiry.answered_at ? (
        <Form method="post" action="/owner" className="mt-4">
          <input type="hidden" name="id" value={inquiry.id} />
          <button type="submit" name="intent" value="answered" className={secondaryButton}>
            I have replied
          </button>
        </Form>
      ) : null}
    </article>
  );
}
