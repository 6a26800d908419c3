import type { ConversationEntry, InquiryPageView } from "../../server/inquiries/inquiry-page.server";

const BUYER_STYLE = "border-slate-700 bg-slate-950";
const OWNER_STYLE = "border-blue-900 bg-blue-950/40";

/** The conversation on an inquiry page, oldest first, named from the reader's side ("You" is the reader). */
export function Conversation({ view }: { view: InquiryPageView }) {
  const nameOf = (author: ConversationEntry["author"]) =>
    author === view.side ? "You" : author === "buyer" ? view.buyerName : "The owner";
  return (
    <section aria-labelledby="conversation-heading" className="mt-8">
      <h2 id="conversation-heading" className="text-xl font-semibold">
        Conversation
      </h2>
      <ConversationList entries={view.entries} nameOf={nameOf} />
    </section>
  );
}

/** The entries alone, for the inquiry pages and the admin inbox. */
export function ConversationList({
  entries,
  nameOf,
}: {
  entries: ConversationEntry[];
  nameOf: (author: ConversationEntry["author"]) => string;
}) {
  return (
    <ol className="mt-4 space-y-4">
      {entries.map((entry) => (
        <li key={entry.key} className={`rounded-lg border p-4 ${entry.author === "buyer" ? BUYER_STYLE : OWNER_STYLE}`}>
          <p className="text-sm text-slate-400">
            <strong className="text-slate-200">{nameOf(entry.author)}</strong> · {entry.at}
          </p>
          <EntryBody entry={entry} />
        </li>
      ))}
    </ol>
  );
}

function EntryBody({ entry }: { entry: ConversationEntry }) {
  if (entry.kind === "email") return <p className="mt-2 text-slate-300 italic">The owner replied by email.</p>;
  if (entry.kind === "marked")
    return <p className="mt-2 text-slate-300 italic">The site's administrator marked this inquiry as answered.</p>;
  return (
    <>
      <p className="mt-2 whitespace-pre-wrap break-words text-slate-100">{entry.body}</p>
      {entry.kind === "site" && <p className="mt-2 text-xs text-slate-400">Sent by the site on behalf of the owner.</p>}
    </>
  );
}
