import { Form } from "react-router";
import { MAX_MESSAGE_CHARS, MESSAGE_FIELD } from "../../lib/inquiry-message";
import type { InquiryPageView } from "../../server/inquiries/inquiry-page.server";
import type { ReplyActionError } from "../../server/inquiries/reply-action.server";
import { IntentButton } from "../intent-button";
import { inputClass, primaryButton } from "../ui";
import { Conversation } from "./conversation";

/**
 * "Send reply" for either side. No action attribute: the form posts to the page's own signed address.
 * After a successful post the page redirects back to itself; the caller changes `key` to empty the field.
 */
export function ReplyForm({ label, error, text }: { label: string; error: string | null; text: string }) {
  return (
    <Form method="post" className="mt-8">
      <label htmlFor="reply-message" className="block text-lg font-semibold">
        {label}
      </label>
      <textarea
        id="reply-message"
        name={MESSAGE_FIELD}
        rows={6}
        required
        maxLength={MAX_MESSAGE_CHARS}
        defaultValue={text}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? "reply-error" : "reply-hint"}
        className={inputClass}
      />
      {error ? (
        <p
          id="reply-error"
          role="alert"
          className="mt-2 rounded-lg border border-red-700 bg-red-950/70 px-4 py-3 text-red-100"
        >
          {error}
        </p>
      ) : (
        <p id="reply-hint" className="mt-2 text-sm text-slate-400">
          Plain text, up to {MAX_MESSAGE_CHARS.toLocaleString("en-US")} characters. It is emailed to the other side.
        </p>
      )}
      <IntentButton intent="reply" label="Send reply" busyLabel="Sending..." className={`${primaryButton} mt-4`} />
    </Form>
  );
}

/** A success message after the redirect. */
export function ReplyNoticeView({ text }: { text: string }) {
  return (
    <p role="status" className="mt-6 rounded-lg border border-emerald-700 bg-emerald-950/60 px-4 py-3 text-emerald-100">
      {text}
    </p>
  );
}

/**
 * The conversation and, while the inquiry is open (or a reply was just refused), "Send reply".
 * `key` follows the entries so a sent reply empties the field.
 */
export function ConversationWithReply({
  view,
  actionData,
  replyLabel,
}: {
  view: InquiryPageView;
  actionData: ReplyActionError | undefined;
  replyLabel: string;
}) {
  return (
    <>
      <Conversation view={view} />
      {(view.open || actionData?.intent === "reply") && (
        <ReplyForm
          key={view.entries.length}
          label={replyLabel}
          error={actionData?.intent === "reply" ? actionData.error : null}
          text={actionData?.intent === "reply" ? actionData.text : ""}
        />
      )}
    </>
  );
}
