import { Form } from "react-router";
import { MAX_MESSAGE_CHARS, MESSAGE_FIELD } from "../../lib/inquiry-message";
import type { CreditSummary, InboxRow } from "../../server/admin/admin-inquiries.server";
import { formatUsd } from "../../lib/money";
import { ConversationList } from "../inquiry/conversation";
import { IntentButton } from "../intent-button";
import { inputClass, primaryButton, secondaryButton } from "../ui";

export interface ReplyRefusal {
  id: number;
  error: string;
  text: string;
}

/** The inquiry's conversation in the inbox and on the owner's desk; the buyer's first message is on the card. */
export function InquiryConversation({ inquiry }: { inquiry: InboxRow }) {
  const nameOf = (author: "buyer" | "owner") => (author === "buyer" ? inquiry.name : "Owner");
  const replies = inquiry.conversation.filter((entry) => entry.key !== "first");
  return (
    <details className="mt-3" open={replies.length > 0}>
      <summary className="cursor-pointer text-sm text-slate-300">
        {`Conversation: ${inquiry.statusText} (${replies.length} after the first message)`}
      </summary>
      <ConversationList entries={replies} nameOf={nameOf} />
    </details>
  );
}

/**
 * The card's one way to reply in the product, as the owner (from the inbox, the buyer's email and page
 * say the site sent it). Shown while the inquiry is open, outside the collapsible conversation so it is
 * never hidden; a refused reply comes back with its text for this inquiry only.
 */
export function ReplyAsOwnerForm({
  inquiry,
  returnTo,
  refusal,
  primary,
}: {
  inquiry: InboxRow;
  returnTo: string;
  refusal: ReplyRefusal | null;
  /** The card's main action (no offer waits for an answer). */
  primary: boolean;
}) {
  if (!inquiry.open && !refusal) return null;
  const fieldId = `reply-${inquiry.id}`;
  return (
    <Form method="post" preventScrollReset className="mt-4" key={inquiry.conversation.length}>
      <input type="hidden" name="id" value={inquiry.id} />
      <input type="hidden" name="returnTo" value={returnTo} />
      <label htmlFor={fieldId} className="text-sm text-slate-300">
        {`Reply as the owner to ${inquiry.name}`}
      </label>
      <textarea
        id={fieldId}
        name={MESSAGE_FIELD}
        rows={3}
        maxLength={MAX_MESSAGE_CHARS}
        defaultValue={refusal?.text ?? ""}
        aria-invalid={refusal ? true : undefined}
        aria-describedby={refusal ? `${fieldId}-error` : undefined}
        className={inputClass}
      />
      {refusal && (
        <p
          id={`${fieldId}-error`}
          role="alert"
          className="mt-2 rounded-lg border border-red-700 bg-red-950/70 px-4 py-3 text-red-100"
        >
          {refusal.error}
        </p>
      )}
      <IntentButton
        intent="reply"
        label="Send reply"
        busyLabel="Sending..."
        className={`${primary ? primaryButton : secondaryButton} mt-2`}
        scope={{ id: String(inquiry.id) }}
      />
    </Form>
  );
}

/** Credits issued, used and open, and the fees kept in money and in credit, counted apart. */
export function CreditSummaryLine(credits: CreditSummary) {
  const paidWithCredit = `${credits.creditPaid} ${credits.creditPaid === 1 ? "inquiry" : "inquiries"} paid with credit`;
  return (
    <p className="mt-6 text-sm text-slate-300" data-testid="credit-summary">
      {`Credits: ${credits.issued} issued, ${credits.used} used, ${credits.open} open. ` +
        `Fees kept: ${formatUsd(credits.moneyFeesCents)} in money, ${paidWithCredit}.`}
    </p>
  );
}
