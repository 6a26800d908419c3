// Refunds an inquiry's fee through the provider that took it. Safe to call twice, or from two places
// at once (the admin's button and an automatic-refund scheduler): the provider sees one idempotency
// key per inquiry, and only a conditional UPDATE ... WHERE status = 'paid' marks it refunded.
import { nowIso } from "./clock.server";
import { lazyStatement } from "./db.server";
import { getPaymentProvider, type ProviderName } from "./payments/index.server";
import type { Inquiry } from "../../db/schema";

export type RefundOutcome =
  | { status: "refunded"; refundId: string }
  | { status: "already-refunded" }
  | { status: "not-found" | "not-refundable" | "failed"; message: string };

const selectInquiry = lazyStatement<[number], Inquiry>("SELECT * FROM inquiries WHERE id = ?");
const markRefunded = lazyStatement<[string, number]>(
  "UPDATE inquiries SET status = 'refunded', refunded_at = ?, last_error = NULL WHERE id = ? AND status = 'paid'",
);
const recordError = lazyStatement<[string, number]>("UPDATE inquiries SET last_error = ? WHERE id = ?");

export function refundIdempotencyKey(inquiry: Pick<Inquiry, "public_id">): string {
  return `refund-${inquiry.public_id}`;
}

export async function refundInquiry(inquiryId: number): Promise<RefundOutcome> {
  const inquiry = selectInquiry().get(inquiryId);
  if (!inquiry) return { status: "not-found", message: "That inquiry does not exist." };
  if (inquiry.status === "refunded") return { status: "already-refunded" };
  if (inquiry.status !== "paid") return { status: "not-refundable", message: "Only a paid inquiry can be refunded." };
  try {
    const provider = getPaymentProvider(inquiry.provider as ProviderName);
    let paymentId = inquiry.payment_intent_id;
    if (!paymentId && inquiry.checkout_session_id) {
      paymentId = (await provider.retrieveCheckoutPayment(inquiry.checkout_session_id))?.paymentId ?? null;
    }
    if (!paymentId) return fail(inquiry.id, "The payment for this inquiry could not be found at the payment provider.");
    const refund = await provider.refund(paymentId, refundIdempotencyKey(inquiry));
    if (refund.status === "failed") return fail(inquiry.id, "The payment provider refused the refund. Please try again later.");
    const changed = markRefunded().run(nowIso(), inquiry.id).changes === 1;
    return changed ? { status: "refunded", refundId: refund.refundId } : { status: "already-refunded" };
  } catch (error) {
    console.error(JSON.stringify({ msg: "refund failed", inquiryId, error: (error as Error).message }));
    return fail(inquiry.id, `The refund could not be made: ${(error as Error).message}`);
  }
}

function fail(inquiryId: number, message: string): RefundOutcome {
  recordError().run(message, inquiryId);
  return { status: "failed", message };
}
