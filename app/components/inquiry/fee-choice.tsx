import { Form, useNavigation } from "react-router";
import type { FeeChoiceView } from "../../server/inquiries/fee-choice.server";
import { primaryButton, secondaryButton } from "../ui";

/** After a silent deadline: refund or credit (a new credit only, when paid with one), the refund under way, or the credit (its code shown once). */
export function FeeChoice({ choice, error }: { choice: FeeChoiceView; error: string | null }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  if (!choice && !error) return null;
  return (
    <section
      aria-labelledby="fee-choice-heading"
      className="mt-8 rounded-lg border border-amber-700 bg-amber-950/30 p-4"
    >
      <h2 id="fee-choice-heading" className="text-xl font-semibold">
        Your fee
      </h2>
      {error && (
        <p role="alert" className="mt-3 rounded-lg border border-red-700 bg-red-950/70 px-4 py-3 text-red-100">
          {error}
        </p>
      )}
      {choice?.kind === "offer" && (
        <>
          <p className="mt-3 text-slate-200">
            {`The owner did not reply in time. Choose what happens to your fee of ${choice.fee}: a refund to your ` +
              "original payment method, or a credit worth one inquiry at any fee on this site, valid for a year. " +
              `Without a choice by ${choice.endsAt}, the fee is refunded automatically.`}
          </p>
          <Form method="post" className="mt-4 flex flex-wrap gap-3">
            <button type="submit" name="intent" value="choose-refund" className={primaryButton} disabled={busy}>
              Refund my fee
            </button>
            <button type="submit" name="intent" value="choose-credit" className={secondaryButton} disabled={busy}>
              Take a credit instead
            </button>
          </Form>
        </>
      )}
      {choice?.kind === "new-credit" && (
        <>
          <p className="mt-3 text-slate-200">
            The owner did not reply in time. You paid with a credit, so you get a new one (never money): worth one
            inquiry at any fee on this site, valid for a year, and emailed to you.
          </p>
          <Form method="post" className="mt-4">
            <button type="submit" name="intent" value="choose-credit" className={primaryButton} disabled={busy}>
              Take a new credit
            </button>
          </Form>
        </>
      )}
      {choice?.kind === "refunding" && (
        <p className="mt-3 text-slate-200">Your fee is being refunded to your original payment method.</p>
      )}
      {choice?.kind === "credited" &&
        (choice.credit ? (
          <div className="mt-3 text-slate-200">
            <p>Your credit code (also emailed to you). It is shown here only once:</p>
            <p className="mt-2 font-mono text-2xl tracking-wider text-white" data-testid="credit-code">
              {choice.credit.code}
            </p>
            <p className="mt-2 text-sm text-slate-300">
              {`Valid until ${choice.credit.expiresAt}. Enter it in the "Credit code" field of the inquiry form.`}
            </p>
          </div>
        ) : (
          <p className="mt-3 text-slate-200">You took a credit for this fee. Its code was emailed to you.</p>
        ))}
    </section>
  );
}
