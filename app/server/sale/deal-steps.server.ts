// An agreed deal's steps besides payment: "Pay $Y" opens the provider's checkout for the amount due (the
// server's figure), "Cancel deal" by either side while unpaid, and expiry after DEAL_PAY_DAYS. A cancelled
// or expired deal puts the name back on sale; cancelling appears in the inquiry's conversation.
import type { Deal } from "../../../db/schema";
import { formatUsd } from "../../lib/money";
import { db } from "../db/database.server";
import { inTransaction, type Executor } from "../db/dialect.server";
import { nowIso } from "../runtime/clock.server";
import { MessageRefused, postInquiryMessage } from "../inquiries/messages.server";
import type { DealSide } from "./deals.server";
import { queueDealExpiredEmails, queueLateTransferEmails } from "./deal-mail.server";

export type StepResult = { ok: true } | { ok: false; status: number; message: string };

/** Ends an unpaid deal and puts the name back on sale; false when it was no longer agreed. */
async function closeUnpaid(trx: Executor, deal: Deal, status: "cancelled" | "expired", at: string): Promise<boolean> {
  const closed = await trx
    .updateTable("deals")
    .set({ status, closed_at: at, updated_at: at })
    .where("id", "=", deal.id)
    .where("status", "=", "agreed")
    .executeTakeFirst();
  if (closed.numUpdatedRows !== 1n) return false;
  await trx
    .updateTable("domains")
    .set({ sale_state: null, updated_at: at })
    .where("id", "=", deal.domain_id)
    .where("sale_state", "=", "under_offer")
    .execute();
  return true;
}

export const CANCEL_REFUSED_TEXT = "This deal can no longer be cancelled: it was paid, or it is already closed.";

/** "Cancel deal": either side, while the deal is unpaid. The conversation says so, and the other side is emailed. */
export async function cancelDeal(deal: Deal, side: DealSide): Promise<StepResult> {
  if (deal.status !== "agreed") return { ok: false, status: 409, message: CANCEL_REFUSED_TEXT };
  const inquiry = deal.inquiry_id
    ? await db.selectFrom("inquiries").selectAll().where("id", "=", deal.inquiry_id).executeTakeFirst()
    : undefined;
  if (!inquiry) return { ok: false, status: 409, message: CANCEL_REFUSED_TEXT };
  const author =
    side === "buyer" ? ({ author: "buyer", via: "page" } as const) : ({ author: "owner", via: "page" } as const);
  const posted = await postInquiryMessage(
    inquiry,
    author,
    `Cancelled the deal at ${formatUsd(deal.price_cents)}. The name is back on sale.`,
    async (trx, _messageId, at) => {
      if (!(await closeUnpaid(trx, deal, "cancelled", at))) throw new MessageRefused(CANCEL_REFUSED_TEXT);
    },
  );
  if (posted.ok) return { ok: true };
  return { ok: false, status: posted.reason === "rate_limited" ? 429 : 409, message: posted.message };
}

/** The reconciler's pass: agreed deals past their pay-by date expire, their names are back on sale, and both sides are told. */
export async function expireUnpaidDeals(): Promise<number> {
  const at = nowIso();
  const due = await db
    .selectFrom("deals")
    .selectAll()
    .where("status", "=", "agreed")
    .where("pay_by", "<=", at)
    .orderBy("id")
    .limit(100)
    .execute();
  let expired = 0;
  for (const deal of due) {
    const closed = await inTransaction(async (trx) => {
      if (!(await closeUnpaid(trx, deal, "expired", at))) return false;
      await queueDealExpiredEmails(deal, trx);
      return true;
    });
    if (closed) expired++;
  }
  return expired;
}

/**
 * The reconciler's pass: a paid deal with no transfer details TRANSFER_DAYS after payment. The buyer and
 * the admin are told once (the conditional UPDATE claims it), and the admin can "Refund deal".
 */
export async function notifyLateTransfers(): Promise<number> {
  const at = nowIso();
  const late = await db
    .selectFrom("deals")
    .selectAll()
    .where("status", "=", "paid")
    .where("transfer_due_at", "<=", at)
    .where("overdue_notified_at", "is", null)
    .orderBy("id")
    .limit(100)
    .execute();
  let told = 0;
  for (const deal of late) {
    const claimed = await inTransaction(async (trx) => {
      const result = await trx
        .updateTable("deals")
        .set({ overdue_notified_at: at })
        .where("id", "=", deal.id)
        .where("status", "=", "paid")
        .where("overdue_notified_at", "is", null)
        .executeTakeFirst();
      if (result.numUpdatedRows !== 1n) return false;
      await queueLateTransferEmails(deal, trx);
      return true;
    });
    if (claimed) told++;
  }
  return told;
}
