// What an inquiry page shows of offers and a deal, for one side (issue 37 item 2 and 3).
import type { Deal, Inquiry } from "../../../db/schema";
import { formatUsd } from "../../lib/money";
import { db } from "../db/database.server";
import { now } from "../runtime/clock.server";
import { formatUtc } from "../inquiries/refund-promise.server";
import { DEAL_STATUS_TEXT, dealPagePath, SHOWN_DEAL_STATUSES } from "./deals.server";
import { OWNER_CHANGED_TEXT, ownerChangedSince, type OfferSide } from "./offers.server";

export interface OffersView {
  side: OfferSide;
  /** The latest offer still open, from either side. */
  open: { from: OfferSide; amount: string; until: string } | null;
  /** This side may accept, counter or decline the open offer. */
  canAnswer: boolean;
  /** The buyer may make an offer (a new one replaces their open one). */
  canOffer: boolean;
  deal: {
    status: Deal["status"];
    statusText: string;
    price: string;
    feeCredited: string | null;
    amountDue: string;
    /** This side's deal page (a signed link). */
    path: string;
  } | null;
  /** Why no offer can be made: the name is under offer or sold, or has had a new owner since the inquiry. */
  note: string | null;
}

export async function offersView(inquiry: Inquiry, side: OfferSide, inquiryOpen: boolean): Promise<OffersView> {
  const at = now().toISOString();
  const [open, deal, domain] = await Promise.all([
    db
      .selectFrom("offers")
      .selectAll()
      .where("inquiry_id", "=", inquiry.id)
      .where("status", "=", "open")
      .where("expires_at", ">", at)
      .orderBy("id", "desc")
      .executeTakeFirst(),
    db
      .selectFrom("deals")
      .selectAll()
      .where("inquiry_id", "=", inquiry.id)
      .where("status", "in", SHOWN_DEAL_STATUSES)
      .orderBy("id", "desc")
      .executeTakeFirst(),
    db
      .selectFrom("domains")
      .select(["sale_state", "deleted_at", "owner_email"])
      .where("id", "=", inquiry.domain_id)
      .executeTakeFirst(),
  ]);
  const ownerChanged = !!domain && ownerChangedSince(domain, inquiry);
  const onSale = !!domain && domain.sale_state === null && domain.deleted_at === null && !ownerChanged;
  const note = deal
    ? null
    : domain?.sale_state === "sold"
      ? "This name has been sold."
      : domain?.sale_state === "under_offer"
        ? "This name is under offer."
        : ownerChanged
          ? OWNER_CHANGED_TEXT
          : null;
  return {
    side,
    open:
      open && !deal
        ? { from: open.side, amount: formatUsd(open.amount_cents), until: formatUtc(open.expires_at) }
        : null,
    canAnswer: !!open && !deal && open.side !== side && inquiryOpen && onSale,
    canOffer: side === "buyer" && !deal && inquiryOpen && onSale,
    deal: deal
      ? {
          status: deal.status,
          statusText: DEAL_STATUS_TEXT[deal.status],
          price: formatUsd(deal.price_cents),
          feeCredited: deal.fee_credited_cents > 0 ? formatUsd(deal.fee_credited_cents) : null,
          amountDue: formatUsd(deal.amount_due_cents),
          path: dealPagePath(side, deal.public_id),
        }
      : null,
    note,
  };
}
