import type { ConversationEntry, InquiryPageView } from "../../server/conversation/inquiry-page.server";

/** The conversation, oldest first, named from the reader's side ("You" is whoever reads the page). */
export function Conversation({ view }: { view: InquiryPageView }) {
  return (
    <section aria-labelledby="conversation-heading" className="mt-8">
      <h2 id="conversation-heading" className="text-xl font-semibold">
        Conversation
      </h2>
      <ol className="mt-4 space-y-4">
        {view.entries.map((entry) => (
          <li key={entry.key} className={`rounded-lg border p-4 ${entry.author === "buyer" ? "border-slate-700 bg-slate-950" : "border-blue-900 bg-blue-950/40"}`}>
            <p className="text-sm text-slate-400">
              <strong className="text-slate-200">{authorName(entry, view)}</strong> · {entry.at}
            </p>
            <EntryBody entry={entry} />
          </li>
        ))}
      </ol>
    </section>
  );
}

function authorName(entry: ConversationEntry, view: InquiryPageView): string {
  const mine = (entry.author === "buyer") === (view.side === "buyer");
  if (mine) return "You";
  return entry.author === "buyer" ? view.buyerName : "The owner";
}

function EntryBody({ entry }: { entry: ConversationEntry }) {
  if (entry.kind === "email") return <p className="mt-2 text-slate-300 italic">The owner replied by email.</p>;
  if (entry.kind === "marked") return <p className="mt-2 text-slate-300 italic">The site's administrator marked this inquiry as answered.</p>;
  return (
    <>
      <p className="mt-2 whitespace-pre-wrap break-words text-slate-100">{entry.body}</p>
      {entry.kind === "site" && <p className="mt-2 text-xs text-slate-400">Sent by the site on behalf of the owner.</p>}
    </>
  );
}
