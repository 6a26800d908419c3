import { Form } from "react-router";
import { formatUsd } from "../../lib/money";
import type { DeadLetter, ProblemRefund } from "../../server/admin/admin-inquiries.server";
import type { StrayPayment } from "../../server/payments/stray-payments.server";
import { card, secondaryButton } from "../ui";
import { useReturnTo } from "./hooks";
import { LocalDate } from "./local-date";

type Stray = StrayPayment & { domain_name: string | null; email: string | null };

const STRAY_REASON: Record<Stray["reason"], string> = {
  duplicate: "Second payment for one inquiry",
  mismatch: "Payment that does not match its inquiry",
  expired: "Payment for an expired inquiry",
};

function strayState(stray: Stray): string {
  if (stray.state === "pending") return "refund pending at the payment provider";
  if (stray.state === "gave_up")
    return `refund failed ${stray.attempts} times and stopped: ${stray.last_error ?? "refused"}`;
  if (stray.attempts > 0)
    return `refund failed ${stray.attempts === 1 ? "once" : `${stray.attempts} times`}, next attempt soon: ${stray.last_error ?? ""}`;
  return "to be refunded";
}

/** Money and mail that need the admin's eyes: shown only when there is something to see. */
export function PaymentProblems({
  strays,
  refunds,
  deadLetters,
}: {
  strays: Stray[];
  refunds: ProblemRefund[];
  deadLetters: DeadLetter[];
}) {
  const returnTo = useReturnTo();
  if (strays.length + refunds.length + deadLetters.length === 0) return null;
  const settle = (name: string, value: string | number) => (
    <Form method="post" className="mt-2">
      <input type="hidden" name={name} value={value} />
      <input type="hidden" name="returnTo" value={returnTo} />
      <button
        type="submit"
        name="intent"
        value={name === "id" ? "settle-refund" : "settle-payment"}
        className={secondaryButton}
      >
        Mark settled
      </button>
    </Form>
  );
  return (
    <section aria-labelledby="payment-problems" className={`${card} mt-6 border-amber-700`}>
      <h2 id="payment-problems" className="text-lg font-semibold text-amber-100">
        Problems to see
      </h2>
      <ul className="mt-3 flex flex-col gap-3 text-sm">
        {strays.map((stray) => (
          <li key={stray.payment_id}>
            <strong>{STRAY_REASON[stray.reason]}</strong>
            {` (${formatUsd(stray.amount_cents)}${stray.domain_name ? `, ${stray.domain_name}` : ""}${stray.email ? `, ${stray.email}` : ""}, payment ${stray.payment_id}): `}
            {strayState(stray)}
            {stray.state === "gave_up" ? settle("paymentId", stray.payment_id) : null}
          </li>
        ))}
        {refunds.map((refund) => (
          <li key={refund.id}>
            <strong>{refund.refund_state === "pending" ? "Refund pending" : "Refund stopped"}</strong>
            {` (${formatUsd(refund.amount_cents)}, ${refund.domain_name}, ${refund.email}): `}
            {refund.refund_state === "pending"
              ? "the payment provider has not finished it yet"
              : `it keeps failing and is not retried any more: ${refund.last_error ?? refund.refund_last_error ?? "refused"}`}
            {refund.refund_state === "gave_up" ? settle("id", refund.id) : null}
          </li>
        ))}
        {deadLetters.map((mail) => (
          <li key={mail.id}>
            <strong>Undeliverable email</strong>
            {` to ${mail.to_address} ("${mail.subject}"), refused after ${mail.attempts} attempts on `}
            <LocalDate iso={mail.dead_at} />
            {`: ${mail.last_error ?? ""}`}
          </li>
        ))}
      </ul>
    </section>
  );
}
