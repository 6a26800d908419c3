// Offers in the conversation (issue 37 item 2). Each offer and each answer is a message of the inquiry
// (stored, emailed, shown; from the owner it counts as the reply for the refund promise), and its state
// changes in that message's transaction (postInquiryMessage's hook), so a refused step leaves no message.
// An offer is open for OFFER_DAYS; a new one replaces its sender's open one. Accepting makes a deal.
import { sql } from "kysely";
import type { Deal, Domain, Inquiry, Offer } from "../../../db/schema";
import { formatUsd } from "../../lib/money";
import { normalizeEmail } from "../admin/users.server";
import { db } from "../db/database.server";
import { isUniqueViolation, type Executor } from "../db/dialect.server";
import { now } from "../runtime/clock.server";
import { env } from "../runtime/env.server";
import {
  AUTO_ACCEPT_VIA,
  MessageRefused,
  ownerAddressOf,
  postInquiryMessage,
  type MessageAuthor,
  type PostMessageResult,
} from "../inquiries/messages.server";
import { newDealPublicId } from "./deals.server";
import { SOLD_TEXT } from "./buy-now.server";
import { queueDealAgreedEmail } from "./deal-mail.server";

export type OfferSide = "buyer" | "owner";
const DAY_MS = 24 * 60 * 60 * 1000;
/** The least a card payment can be: the fee credited never takes a deal's amount due below it. */
const MIN_CHARGE_CENTS = 50;

export const BELOW_MINIMUM_TEXT =
  "Your offer is below the owner's minimum offer, so it was declined at once. You can send a higher offer.";
export const NOT_OPEN_TEXT = "This offer is no longer open: it was answered, replaced or has expired.";
export const UNDER_OFFER_TEXT = "This name is already under offer.";
export const OWNER_CHANGED_TEXT =
  "This name has had a new owner since this inquiry was sent, so offers here are closed. You can still write.";

const authorOf = (side: OfferSide, bySite: boolean): MessageAuthor =>
  side === "buyer" ? { author: "buyer", via: "page" } : { author: "owner", via: bySite ? "site" : "page" };
const other = (side: OfferSide): OfferSide => (side === "buyer" ? "owner" : "buyer");

async function domainOf(inquiry: Inquiry): Promise<Domain | undefined> {
  return db.selectFrom("domains").selectAll().where("id", "=", inquiry.domain_id).executeTakeFirst();
}

/** The other side's latest offer still open now, if any. */
export async function openOfferFrom(inquiryId: number, side: OfferSide, at = now()): Promise<Offer | null> {
  const row = await db
    .selectFrom("offers")
    .selectAll()
    .where("inquiry_id", "=", inquiryId)
    .where("side", "=", side)
    .where("status", "=", "open")
    .where("expires_at", ">", at.toISOString())
    .orderBy("id", "desc")
    .executeTakeFirst();
  return row ?? null;
}

/** The name's owner is no longer the one the inquiry was sent to (an empty address: the admin's). */
export const ownerChangedSince = (domain: Pick<Domain, "owner_email">, inquiry: Pick<Inquiry, "owner_email">) =>
  normalizeEmail(domain.owner_email) !== normalizeEmail(inquiry.owner_email ?? "");

/**
 * Why the name cannot be offered on or sold through this inquiry now, else null. An inquiry stays with the
 * owner it was sent to (docs/owners.md); once the name has another owner, that earlier owner must not sell
 * it, nor the buyer's offer be accepted by the new owner's "Accept offers at or above" for the earlier one.
 */
function saleRefusal(domain: Domain | undefined, inquiry: Inquiry): string | null {
  if (!domain || domain.sale_state === "sold" || domain.sold_at) return SOLD_TEXT;
  if (domain.sale_state === "under_offer") return UNDER_OFFER_TEXT;
  if (domain.deleted_at) return "This name is no longer for sale.";
  if (ownerChangedSince(domain, inquiry)) return OWNER_CHANGED_TEXT;
  return null;
}

async function recordOffer(
  trx: Executor,
  inquiry: Inquiry,
  side: OfferSide,
  cents: number,
  messageId: number,
  at: string,
) {
  await trx
    .updateTable("offers")
    .set({ status: "replaced", answered_at: at })
    .where("inquiry_id", "=", inquiry.id)
    .where("side", "=", side)
    .where("status", "=", "open")
    .execute();
  return trx
    .insertInto("offers")
    .values({
      inquiry_id: inquiry.id,
      side,
      amount_cents: cents,
      status: "open",
      message_id: messageId,
      created_at: at,
      expires_at: new Date(Date.parse(at) + env.OFFER_DAYS * DAY_MS).toISOString(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Closes an offer still open (accepted, declined, countered); refuses when another step got there first. */
async function closeOffer(trx: Executor, offer: Offer, status: "accepted" | "declined" | "countered", at: string) {
  const closed = await trx
    .updateTable("offers")
    .set({ status, answered_at: at })
    .where("id", "=", offer.id)
    .where("status", "=", "open")
    .where("expires_at", ">", at)
    .executeTakeFirst();
  if (closed.numUpdatedRows !== 1n) throw new MessageRefused(NOT_OPEN_TEXT);
}

/**
 * The deal an accepted offer makes, and the name under offer; one per name (the unique index). The deal's
 * row is written before the name's, as a payment (fulfilDealPayment) and a cancel write them: in the other
 * order an acceptance and a buy now's payment at once deadlocked on PostgreSQL (each held the row the
 * other needed), and the loser got an error page instead of the refusal.
 */
async function agreeDeal(trx: Executor, inquiry: Inquiry, priceCents: number, at: string): Promise<void> {
  const fee = inquiry.status === "paid" && inquiry.provider !== "credit" ? inquiry.amount_cents : 0;
  const feeCredited = Math.max(0, Math.min(fee, priceCents - MIN_CHARGE_CENTS));
  let deal: Deal;
  try {
    deal = await trx
      .insertInto("deals")
      .values({
        public_id: newDealPublicId(),
        domain_id: inquiry.domain_id,
        domain_name: inquiry.domain_name,
        inquiry_id: inquiry.id,
        origin: "offer",
        price_cents: priceCents,
        fee_credited_cents: feeCredited,
        amount_due_cents: priceCents - feeCredited,
        buyer_name: inquiry.name,
        buyer_email: inquiry.email,
        owner_email: ownerAddressOf(inquiry),
        status: "agreed",
        provider: inquiry.provider === "stripe" || inquiry.provider === "test" ? inquiry.provider : env.payments,
        created_at: at,
        pay_by: new Date(Date.parse(at) + env.DEAL_PAY_DAYS * DAY_MS).toISOString(),
        updated_at: at,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  } catch (error) {
    if (isUniqueViolation(error)) throw new MessageRefused(UNDER_OFFER_TEXT);
    throw error;
  }
  const underOffer = await trx
    .updateTable("domains")
    .set({ sale_state: "under_offer", updated_at: at })
    .where("id", "=", inquiry.domain_id)
    .where("deleted_at", "is", null)
    .where("sale_state", "is", null)
    .executeTakeFirst();
  if (underOffer.numUpdatedRows !== 1n) throw new MessageRefused(UNDER_OFFER_TEXT);
  await queueDealAgreedEmail(deal, trx);
}

/**
 * An offer accepted by the owner's own rule ("Accept offers at or above") is their answer for the refund
 * promise, as accepting it by hand would be: the fee is credited against the deal's price, so it must not
 * also be refunded or turned into a credit at the reply deadline. `auto_accept` keeps it out of the owner's
 * reply time (owner-reply-time.server.ts): it says nothing of how fast they reply.
 */
async function answeredByRule(trx: Executor, inquiry: Inquiry, at: string): Promise<void> {
  await trx
    .updateTable("inquiries")
    .set({
      answered_at: sql<string>`coalesce(answered_at, ${at})`,
      answered_via: sql<string>`coalesce(answered_via, ${AUTO_ACCEPT_VIA})`,
    })
    .where("id", "=", inquiry.id)
    .execute();
}

/** "Send offer" (buyer) or a counter-offer (either side, answering the other's open offer). */
export async function sendOffer(
  inquiry: Inquiry,
  side: OfferSide,
  cents: number,
  options: { counter?: boolean; bySite?: boolean } = {},
): Promise<PostMessageResult & { agreed?: boolean }> {
  const domain = await domainOf(inquiry);
  const refusal = saleRefusal(domain, inquiry);
  if (refusal) return { ok: false, reason: "refused", message: refusal };
  if (side === "buyer" && domain!.min_offer_cents && cents < domain!.min_offer_cents)
    return { ok: false, reason: "refused", message: BELOW_MINIMUM_TEXT };
  const answering = options.counter ? await openOfferFrom(inquiry.id, other(side)) : null;
  if (options.counter && !answering) return { ok: false, reason: "refused", message: NOT_OPEN_TEXT };
  const autoAccept = side === "buyer" && domain!.auto_accept_cents !== null && cents >= domain!.auto_accept_cents;
  const label = options.counter ? "Counter-offer" : "Offer";
  const body = `${label}: ${formatUsd(cents)}${autoAccept ? " (accepted automatically: a deal is agreed)" : ""}`;
  const posted = await postInquiryMessage(
    inquiry,
    authorOf(side, options.bySite ?? false),
    body,
    async (trx, messageId, at) => {
      if (answering) await closeOffer(trx, answering, "countered", at);
      const offer = await recordOffer(trx, inquiry, side, cents, messageId, at);
      if (autoAccept) {
        await closeOffer(trx, offer, "accepted", at);
        await agreeDeal(trx, inquiry, cents, at);
        await answeredByRule(trx, inquiry, at);
      }
    },
  );
  return posted.ok ? { ...posted, agreed: autoAccept } : posted;
}

/** "Accept offer" or "Decline": answers the other side's open offer. */
export async function answerOffer(
  inquiry: Inquiry,
  side: OfferSide,
  answer: "accept" | "decline",
  options: { bySite?: boolean } = {},
): Promise<PostMessageResult> {
  const offer = await openOfferFrom(inquiry.id, other(side));
  if (!offer) return { ok: false, reason: "refused", message: NOT_OPEN_TEXT };
  if (answer === "accept") {
    const refusal = saleRefusal(await domainOf(inquiry), inquiry);
    if (refusal) return { ok: false, reason: "refused", message: refusal };
  }
  const amount = formatUsd(offer.amount_cents);
  const body =
    answer === "accept" ? `Accepted the offer of ${amount}: a deal is agreed.` : `Declined the offer of ${amount}.`;
  return postInquiryMessage(inquiry, authorOf(side, options.bySite ?? false), body, async (trx, _messageId, at) => {
    await closeOffer(trx, offer, answer === "accept" ? "accepted" : "declined", at);
    if (answer === "accept") await agreeDeal(trx, inquiry, offer.amount_cents, at);
  });
}
