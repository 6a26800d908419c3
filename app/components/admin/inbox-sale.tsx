import { Form } from "react-router";
import { COUNTER_FIELD } from "../../lib/offer-amount";
import type { InboxRow } from "../../server/admin/admin-inquiries.server";
import { fieldClass, primaryButton, secondaryButton } from "../ui";
import type { ReplyRefusal } from "./inquiry-conversation";
import { LocalDate } from "./local-date";

/** The buyer's open offer waits for the owner's answer: on the card, Accept offer is then the main action. */
export function offerAwaitsAnswer(inquiry: InboxRow): boolean {
  const { openOffer, deal } = inquiry.sale;
  return !deal && Boolean(openOffer?.fromBuyer) && inquiry.open;
}

/** On an inbox card: the buyer's open offer with the owner's answers (the admin answers as the owner), or the deal. */
export function InboxSaleBlock({
  inquiry,
  returnTo,
  refusal,
}: {
  inquiry: InboxRow;
  returnTo: string;
  refusal: ReplyRefusal | null;
}) {
  const { openOffer, deal } = inquiry.sale;
  if (deal)
    return (
      <p data-deal className="mt-3 text-sm font-medium text-emerald-200">
        {`Deal: ${deal.statusText} (${deal.price})`}
      </p>
    );
  if (!openOffer) return null;
  const fieldId = `counter-${inquiry.id}`;
  return (
    <div className="mt-3 rounded-lg border border-slate-700 p-3">
      <p data-open-offer className="text-slate-100">
        {`${openOffer.fromBuyer ? "The buyer's offer" : "The owner's offer"}: ${openOffer.amount}, open until `}
        <LocalDate iso={openOffer.expiresAt} />
      </p>
      {refusal ? (
        <p role="alert" className="mt-2 rounded-lg border border-red-700 bg-red-950/70 px-4 py-2 text-red-100">
          {refusal.error}
        </p>
      ) : null}
      {openOffer.fromBuyer && inquiry.open ? (
        <Form method="post" preventScrollReset className="mt-3 flex flex-wrap items-end gap-3">
          <input type="hidden" name="id" value={inquiry.id} />
          <input type="hidden" name="returnTo" value={returnTo} />
          <button type="submit" name="intent" value="accept-offer" className={primaryButton}>
            Accept offer
          </button>
          <button type="submit" name="intent" value="decline-offer" className={secondaryButton}>
            Decline
          </button>
          <label htmlFor={fieldId} className="text-sm text-slate-300">
            Counter-offer (USD)
            <input
              id={fieldId}
              name={COUNTER_FIELD}
              inputMode="decimal"
              defaultValue={refusal?.text ?? ""}
              className={`${fieldClass} mt-1 w-36`}
            />
          </label>
          <button type="submit" name="intent" value="counter-offer" className={secondaryButton}>
            Counter
          </button>
        </Form>
      ) : null}
    </div>
  );
}
