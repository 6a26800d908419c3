// What the admin's inbox and the owner's desk show of a sale on each inquiry card: the open offer (the
// admin answers it as the owner) and the deal, read for a page of inquiries at once.
import { formatUsd } from "../../lib/money";
import { db } from "../db/database.server";
import { now } from "../runtime/clock.server";
import { DEAL_STATUS_TEXT, SHOWN_DEAL_STATUSES } from "./deals.server";

export interface InboxSale {
  openOffer: { fromBuyer: boolean; amount: string; expiresAt: string } | null;
  deal: { statusText: string; price: string } | null;
}

export async function salesOf(inquiryIds: number[]): Promise<Map<number, InboxSale>> {
  const sales = new Map<number, InboxSale>();
  if (inquiryIds.length === 0) return sales;
  const [offers, deals] = await Promise.all([
    db
      .selectFrom("offers")
      .select(["inquiry_id", "side", "amount_cents", "expires_at"])
      .where("inquiry_id", "in", inquiryIds)
      .where("status", "=", "open")
      .where("expires_at", ">", now().toISOString())
      .orderBy("id")
      .execute(),
    db
      .selectFrom("deals")
      .select(["inquiry_id", "status", "price_cents"])
      .where("inquiry_id", "in", inquiryIds)
      .where("status", "in", SHOWN_DEAL_STATUSES)
      .execute(),
  ]);
  const entry = (id: number) => sales.get(id) ?? sales.set(id, { openOffer: null, deal: null }).get(id)!;
  // Oldest first, so the latest open offer is the one kept.
  for (const offer of offers)
    entry(offer.inquiry_id).openOffer = {
      fromBuyer: offer.side === "buyer",
      amount: formatUsd(Number(offer.amount_cents)),
      expiresAt: offer.expires_at,
    };
  for (const deal of deals) {
    const sale = entry(deal.inquiry_id!);
    sale.deal = { statusText: DEAL_STATUS_TEXT[deal.status], price: formatUsd(Number(deal.price_cents)) };
    sale.openOffer = null;
  }
  return sales;
}
