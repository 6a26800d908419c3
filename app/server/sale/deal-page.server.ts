// What each side's deal page shows and does (routes/deal.tsx, routes/deal.owner.tsx). Only the buyer's
// page shows the authorization code, and only once the owner sent it.
import { data, redirect } from "react-router";
import type { Deal } from "../../../db/schema";
import { formatUtc } from "../inquiries/refund-promise.server";
import { env } from "../runtime/env.server";
import { getPaymentProvider, type ProviderName } from "../payments/index.server";
import { DEAL_STATUS_TEXT, dealPagePath, findSignedDeal, type DealSide } from "./deals.server";
import { checkoutForDeal, fulfilDealCheckout, LOST_TEXT } from "./deal-payment.server";
import { cancelDeal } from "./deal-steps.server";
import { confirmReceived, decryptTransferCode, readTransferForm, sendTransferDetails } from "./transfer.server";

export const DEAL_NOTICE_TEXT = {
  sent: "The transfer details were sent to the buyer.",
  received: "Thank you: the sale is completed.",
  cancelled: "The deal is cancelled. The name is back on sale.",
  "payment-canceled": "Payment canceled. You have not been charged.",
} as const;
type DealNotice = keyof typeof DEAL_NOTICE_TEXT;

export interface DealPageView {
  side: DealSide;
  domainName: string;
  status: Deal["status"];
  statusText: string;
  priceCents: number;
  feeCreditedCents: number;
  amountDueCents: number;
  buyer: { name: string; email: string } | null;
  paidAt: string | null;
  transferDueAt: string | null;
  transferSentAt: string | null;
  completedAt: string | null;
  /** Buyer's page only, once sent; null when the stored code cannot be read. */
  transferCode: string | null;
  transferNote: string | null;
  /** Where an unpaid buy now can still be paid. */
  checkoutUrl: string | null;
  /** An agreed deal's last day to pay. */
  payBy: string | null;
  lostText: string | null;
  notice: string | null;
}

async function signedDeal(side: DealSide, publicId: string, request: Request): Promise<Deal> {
  const deal = await findSignedDeal(side, publicId, new URL(request.url).searchParams.get("sig"));
  if (!deal) throw data({ siteName: env.SITE_NAME }, { status: 404 });
  return deal;
}

const provider = (deal: Deal) => getPaymentProvider(deal.provider as ProviderName);

export async function dealPageLoader(side: DealSide, publicId: string, request: Request) {
  const deal = await signedDeal(side, publicId, request);
  const url = new URL(request.url);
  const sessionId = url.searchParams.get("session_id");
  // The return from checkout: record the payment now (idempotent), then show the page at its own address.
  if (side === "buyer" && sessionId) {
    if ((deal.status === "checkout" || deal.status === "agreed") && sessionId === deal.checkout_id)
      await fulfilDealCheckout(provider(deal), sessionId);
    throw redirect(dealPagePath("buyer", deal.public_id), 303);
  }
  const notice = url.searchParams.get("notice");
  return { siteName: env.SITE_NAME, view: await dealPageView(side, deal, notice) };
}

async function dealPageView(side: DealSide, deal: Deal, notice: string | null): Promise<DealPageView> {
  const shownCode = side === "buyer" && deal.transfer_code ? decryptTransferCode(deal.transfer_code) : null;
  const checkoutUrl =
    side === "buyer" && deal.status === "checkout" && deal.checkout_id
      ? await provider(deal).retrieveCheckoutUrl(deal.checkout_id)
      : null;
  return {
    side,
    domainName: deal.domain_name,
    status: deal.status,
    statusText: DEAL_STATUS_TEXT[deal.status],
    priceCents: deal.price_cents,
    feeCreditedCents: deal.fee_credited_cents,
    amountDueCents: deal.amount_due_cents,
    buyer: side === "owner" ? { name: deal.buyer_name, email: deal.buyer_email } : null,
    paidAt: deal.paid_at && formatUtc(deal.paid_at),
    transferDueAt: deal.transfer_due_at && formatUtc(deal.transfer_due_at),
    transferSentAt: deal.transfer_sent_at && formatUtc(deal.transfer_sent_at),
    completedAt: deal.completed_at && formatUtc(deal.completed_at),
    transferCode: shownCode,
    transferNote: side === "buyer" ? deal.transfer_note : null,
    checkoutUrl,
    payBy: deal.status === "agreed" && deal.pay_by ? formatUtc(deal.pay_by) : null,
    lostText: deal.status === "lost" ? LOST_TEXT : null,
    notice: notice && notice in DEAL_NOTICE_TEXT ? DEAL_NOTICE_TEXT[notice as DealNotice] : null,
  };
}

/** The pages' posts: "Send transfer details" (owner) and "I have received the domain" (buyer). */
export async function dealPageAction(side: DealSide, publicId: string, request: Request) {
  const deal = await signedDeal(side, publicId, request);
  const form = await request.formData();
  const intent = form.get("intent");
  const back = (notice: DealNotice) => redirect(`${dealPagePath(side, deal.public_id)}&notice=${notice}`, 303);
  if (side === "owner" && intent === "send-transfer") {
    const details = readTransferForm(form);
    const result = await sendTransferDetails(deal, details);
    if (result.ok) return back("sent");
    return data({ error: result.message, values: details }, { status: result.status });
  }
  if (side === "buyer" && intent === "pay") {
    const checkout = await checkoutForDeal(deal, request);
    if (!checkout) return data({ error: "This deal cannot be paid now.", values: null }, { status: 409 });
    // Its earlier checkout was paid after all: the page says how the deal stands (paid, or lost and refunded).
    return redirect("url" in checkout ? checkout.url : dealPagePath("buyer", deal.public_id), 303);
  }
  if (intent === "cancel-deal") {
    const result = await cancelDeal(deal, side);
    if (result.ok) return back("cancelled");
    return data({ error: result.message, values: null }, { status: result.status });
  }
  if (side === "buyer" && intent === "received") {
    const result = await confirmReceived(deal);
    if (result.ok) return back("received");
    return data({ error: result.message, values: null }, { status: result.status });
  }
  return data({ error: "Unknown action.", values: null }, { status: 400 });
}
