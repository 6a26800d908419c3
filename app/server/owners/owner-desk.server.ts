// What an owner sees and may change on their desk. Every read and write is scoped to the signed-in owner
// (trimmed, case-insensitive, as the reply-time signal groups them): domains by their owner email now,
// inquiries by the owner they were sent to when paid (a domain's earlier buyers stay its earlier owner's).
// Another owner's domain or inquiry is simply not found.
import { sql } from "kysely";
import type { Inquiry } from "../../../db/schema";
import { db } from "../db/database.server";
import { nowIso } from "../runtime/clock.server";
import { domainFunnel, funnelSelections, lastDays, type DomainFunnel } from "../catalog/domain-funnel.server";
import { INBOX_COLUMNS, toInboxRows, type InboxRow } from "../admin/admin-inquiries.server";
import { markInquiryAnswered } from "../inquiries/refund-promise.server";
import { postInquiryMessage } from "../inquiries/messages.server";
import { runOfferIntent } from "../sale/offer-action.server";
import { parseMessage } from "../../lib/inquiry-message";
import { inquiryOwnerIs, ownerEmailIs } from "../catalog/domains.server";
import { DEAL_STATUS_TEXT, dealOwnerIs, dealPagePath } from "../sale/deals.server";

export interface OwnerDomainRow {
  id: number;
  domain_name: string;
  asking_price_cents: number;
  min_offer_cents: number | null;
  views_30_days: number;
  inquiries_started: number;
  inquiries_paid: number;
}

/** The owner's live domains, by name, with price, views in the last 30 days, inquiries and paid. */
export async function listOwnerDomains(email: string): Promise<OwnerDomainRow[]> {
  const since = lastDays()[0]!;
  const rows = await db
    .selectFrom("domains")
    .select([
      "id",
      "domain_name",
      "asking_price_cents",
      "min_offer_cents",
      sql<number>`coalesce((SELECT sum(views) FROM domain_daily_views WHERE domain_id = domains.id AND day >= ${since}), 0)`.as(
        "views_30_days",
      ),
      funnelSelections[1],
      funnelSelections[2],
    ])
    .where(ownerEmailIs(email))
    .where("deleted_at", "is", null)
    .orderBy("domain_name")
    .execute();
  return rows.map((row) => ({
    ...row,
    views_30_days: Number(row.views_30_days),
    inquiries_started: Number(row.inquiries_started),
    inquiries_paid: Number(row.inquiries_paid),
  }));
}

export async function ownsDomain(email: string, domainId: number): Promise<boolean> {
  const row = await db
    .selectFrom("domains")
    .select("id")
    .where("id", "=", domainId)
    .where(ownerEmailIs(email))
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  return row !== undefined;
}

/** One of the owner's domains with its funnel, or null (not theirs, deleted, or no such domain). */
export async function ownerDomainFunnel(email: string, domainId: number): Promise<DomainFunnel | null> {
  return (await ownsDomain(email, domainId)) ? domainFunnel(domainId) : null;
}

/**
 * Sets the asking price, the minimum offer and the buy now price (null: none) of one of the owner's domains;
 * false when not theirs.
 */
export async function updateOwnerPrices(
  email: string,
  domainId: number,
  prices: {
    askingPriceCents: number;
    minOfferCents: number | null;
    buyNowCents: number | null;
    autoAcceptCents: number | null;
  },
): Promise<boolean> {
  const result = await db
    .updateTable("domains")
    .set({
      asking_price_cents: prices.askingPriceCents,
      min_offer_cents: prices.minOfferCents,
      buy_now_cents: prices.buyNowCents,
      auto_accept_cents: prices.autoAcceptCents,
      updated_at: nowIso(),
    })
    .where("id", "=", domainId)
    .where(ownerEmailIs(email))
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

export const OWNER_INQUIRIES_SHOWN = 100;

/** The paid inquiries sent to the owner, newest payment first (the newest 100; the CSV has them all). */
export async function listOwnerInquiries(email: string): Promise<{ rows: InboxRow[]; total: number }> {
  const query = db
    .selectFrom("inquiries")
    .where("paid_at", "is not", null)
    .where("status", "in", ["paid", "refunded"])
    .where(inquiryOwnerIs(email));
  const { total } = await query.select((eb) => eb.fn.countAll<number>().as("total")).executeTakeFirstOrThrow();
  const found = await query
    .select(INBOX_COLUMNS)
    .orderBy("paid_at", "desc")
    .orderBy("id", "desc")
    .limit(OWNER_INQUIRIES_SHOWN)
    .execute();
  return { rows: await toInboxRows(found), total: Number(total) };
}

export interface OwnerDealRow {
  id: number;
  domainName: string;
  priceCents: number;
  feeCreditedCents: number;
  /** null until the buyer pays. */
  amountPaidCents: number | null;
  statusText: string;
  createdAt: string;
  /** The owner's own signed deal page. */
  href: string;
}

export const OWNER_DEALS_SHOWN = 100;

/**
 * The deals made for the owner (by the owner email the deal recorded), newest first; a buy now never
 * paid ('checkout') is an attempt, not a deal, and is left out as on the admin's Deals page.
 */
export async function listOwnerDeals(email: string): Promise<{ rows: OwnerDealRow[]; total: number }> {
  const query = db.selectFrom("deals").where(dealOwnerIs(email)).where("status", "!=", "checkout");
  const { total } = await query.select((eb) => eb.fn.countAll<number>().as("total")).executeTakeFirstOrThrow();
  const found = await query
    .select(["id", "public_id", "domain_name", "price_cents", "fee_credited_cents", "amount_due_cents", "status"])
    .select(["paid_at", "created_at"])
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(OWNER_DEALS_SHOWN)
    .execute();
  const rows = found.map((deal): OwnerDealRow => ({
    id: deal.id,
    domainName: deal.domain_name,
    priceCents: Number(deal.price_cents),
    feeCreditedCents: Number(deal.fee_credited_cents),
    amountPaidCents: deal.paid_at ? Number(deal.amount_due_cents) : null,
    statusText: DEAL_STATUS_TEXT[deal.status],
    createdAt: deal.created_at,
    href: dealPagePath("owner", deal.public_id),
  }));
  return { rows, total: Number(total) };
}

/** One of the owner's paid inquiries, or undefined. */
async function findOwnerInquiry(email: string, inquiryId: number): Promise<Inquiry | undefined> {
  return db
    .selectFrom("inquiries")
    .selectAll()
    .where("id", "=", inquiryId)
    .where("paid_at", "is not", null)
    .where(inquiryOwnerIs(email))
    .executeTakeFirst();
}

export type OwnerReplyResult =
  { ok: true } | { ok: false; error: string; text: string; status: number; retryAfterSeconds?: number };

/** The owner answers a buyer from the desk, as on the inquiry's own page; null when the inquiry is not theirs. */
export async function replyFromDesk(
  email: string,
  inquiryId: number,
  input: unknown,
): Promise<OwnerReplyResult | null> {
  const inquiry = await findOwnerInquiry(email, inquiryId);
  if (!inquiry) return null;
  const parsed = parseMessage(input);
  if (!parsed.ok) return { ok: false, error: parsed.message, text: parsed.text, status: 400 };
  const posted = await postInquiryMessage(inquiry, { author: "owner", via: "page" }, parsed.text);
  if (posted.ok) return { ok: true };
  return {
    ok: false,
    error: posted.message,
    text: parsed.text,
    status: posted.reason === "closed" ? 409 : 429,
    retryAfterSeconds: posted.reason === "closed" ? undefined : posted.retryAfterSeconds,
  };
}

/** The owner answers the buyer's open offer from the desk; null when the inquiry is not theirs. */
export async function answerOfferFromDesk(
  email: string,
  inquiryId: number,
  intent: "accept-offer" | "decline-offer" | "counter-offer",
  counterAmount: unknown,
): Promise<OwnerReplyResult | null> {
  const inquiry = await findOwnerInquiry(email, inquiryId);
  if (!inquiry) return null;
  const typed = typeof counterAmount === "string" ? counterAmount : "";
  const outcome = await runOfferIntent(inquiry, "owner", intent, typed);
  return outcome.ok ? { ok: true } : { ok: false, error: outcome.error, text: outcome.text, status: outcome.status };
}

/** "I have replied" from the desk; null when the inquiry is not theirs, else whether it changed. */
export async function markAnsweredFromDesk(email: string, inquiryId: number): Promise<boolean | null> {
  const inquiry = await findOwnerInquiry(email, inquiryId);
  if (!inquiry) return null;
  return (await markInquiryAnswered(inquiry.id, "owner_link")).ok;
}
