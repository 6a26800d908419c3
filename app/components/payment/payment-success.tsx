import { Link } from "react-router";
import { TEST_MODE_LABEL } from "../../lib/test-card";
import { Price } from "../domain-name";
import { primaryButton, secondaryButton } from "../ui";

export interface SuccessFacts {
  reference: string;
  /** "$19.99", "Paid with a credit" or "Free". */
  amount: string;
  /** The amount is money (then it never wraps), not "Paid with a credit" or "Free". */
  money: boolean;
  testPayment: boolean;
  replyBy: string | null;
  promise: string | null;
  /** Where the receipt went; null for a free inquiry, or when the page is no longer fresh. */
  receiptTo: string | null;
}

export function PaymentSuccess({
  domainName,
  refunded,
  delisted = false,
  inquiryPath,
  facts,
}: {
  domainName: string;
  refunded: boolean;
  delisted?: boolean;
  inquiryPath: string | null;
  /** The payment's facts from the server (never the browser's): reference, amount, reply-by date, promise, receipt. */
  facts?: SuccessFacts;
}) {
  return (
    <div className="text-center">
      <div
        aria-hidden="true"
        className="mx-auto flex h-16 w-16 items-center justify-center rounded-full bg-emerald-500/15 text-3xl text-emerald-300"
      >
        ✓
      </div>
      <h1 className="mt-4 text-3xl font-semibold">Payment Successful!</h1>
      <p className="mt-4 text-lg text-slate-200">{`Your inquiry for ${domainName} has been sent to the owner.`}</p>
      <p className="mt-3 text-slate-300">
        The owner will receive your contact information and message, and will reach out to you directly.
      </p>
      {delisted && (
        <p className="mt-3 text-slate-300">{`${domainName} was taken off the list while you paid; your inquiry was still delivered to its owner.`}</p>
      )}
      {refunded && <p className="mt-3 text-slate-300">Your inquiry fee has since been refunded.</p>}
      {facts && (
        <dl className="mx-auto mt-6 grid max-w-md grid-cols-[auto_1fr] gap-x-4 gap-y-2 rounded-lg border border-slate-700 p-4 text-left text-sm">
          <dt className="text-slate-400">Reference</dt>
          <dd className="break-all font-mono text-slate-100">{facts.reference}</dd>
          <dt className="text-slate-400">Amount charged</dt>
          <dd className="text-slate-100">
            {facts.money ? <Price>{facts.amount}</Price> : facts.amount}
            {facts.testPayment && <span className="text-amber-200">{` (${TEST_MODE_LABEL})`}</span>}
          </dd>
          {facts.replyBy && (
            <>
              <dt className="text-slate-400">Reply by</dt>
              <dd className="text-slate-100">{facts.replyBy}</dd>
            </>
          )}
        </dl>
      )}
      {facts?.promise && (
        <p data-promise className="mt-4 font-medium text-emerald-300">
          {facts.promise}
        </p>
      )}
      {facts?.receiptTo && (
        <p className="mt-3 break-words text-slate-300">{`A receipt was sent to ${facts.receiptTo}`}</p>
      )}
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        {/* A document navigation: the inquiry page's no-referrer policy must come with its own response. */}
        {inquiryPath && (
          <a href={inquiryPath} className={primaryButton}>
            View your inquiry
          </a>
        )}
        <Link to="/" className={inquiryPath ? secondaryButton : primaryButton}>
          Browse More Domains
        </Link>
      </div>
      <p className="mt-4 text-sm text-slate-400">
        {inquiryPath
          ? "The link to your inquiry is also in your receipt email. Keep it private."
          : "The link to your inquiry is in your receipt email."}
      </p>
    </div>
  );
}

/** A payment outcome that is neither success nor a form: processing, or a domain gone while paying. */
export function PaymentNotice({ title, text }: { title: string; text: string }) {
  return (
    <div className="text-center">
      <h1 className="text-3xl font-semibold">{title}</h1>
      <p role="status" className="mt-4 text-lg text-slate-200">
        {text}
      </p>
      <Link to="/" className={`${primaryButton} mt-8`}>
        Browse More Domains
      </Link>
    </div>
  );
}
