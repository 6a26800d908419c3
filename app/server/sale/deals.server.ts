// A deal: one agreed price for one name (docs/glossary.md). Buy now makes one in 'checkout', which holds
// nothing until it is paid; an accepted offer makes one 'agreed'. The partial unique index
// deals_one_live_per_domain (migration 0240) lets a name have one live deal in any number of processes.
import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import type { Deal, DealStatus } from "../../../db/schema";
import { db } from "../db/database.server";
import type { Executor } from "../db/dialect.server";
import { linkSignature, publicOrigin, verifyLinkSignature } from "../inquiries/signed-links.server";

export type DealSide = "buyer" | "owner";
export const LIVE_DEAL_STATUSES = ["agreed", "paid", "transferred", "completed"] as const satisfies DealStatus[];
/** A deal paid and not refunded since: a sale (insights count these). */
export const SOLD_DEAL_STATUSES = ["paid", "transferred", "completed"] as const satisfies DealStatus[];
/** The deals an inquiry's pages and cards show: the live one, or one refunded after payment (not those that ended unpaid). */
export const SHOWN_DEAL_STATUSES: DealStatus[] = [...LIVE_DEAL_STATUSES, "refunding", "refunded"];

// A purpose per side, so the buyer's link never opens the owner's page (as for inquiries).
const SIDE_PURPOSE: Record<DealSide, string> = { buyer: "deal-buyer", owner: "deal-owner" };

export function newDealPublicId(): string {
  return randomBytes(16).toString("base64url");
}

/** The deal's page for one side: a signed link, like the inquiry pages. */
export function dealPagePath(side: DealSide, publicId: string): string {
  const page =
    side === "owner" ? `/deal/${encodeURIComponent(publicId)}/owner` : `/deal/${encodeURIComponent(publicId)}`;
  return `${page}?sig=${linkSignature(SIDE_PURPOSE[side], publicId)}`;
}

export function dealPageUrl(side: DealSide, publicId: string): string {
  return `${publicOrigin()}${dealPagePath(side, publicId)}`;
}

/**
 * A deal made for the owner `email` (normalized), case and surrounding spaces ignored as inquiryOwnerIs
 * matches: every writer stores deals.owner_email trimmed (buy now, an accepted offer), so lower() alone
 * compares the same and the index deals_owner (lower(owner_email), created_at) serves it.
 */
export function dealOwnerIs(email: string) {
  return sql<boolean>`lower(owner_email) = ${email.trim().toLowerCase()}`;
}

export async function findDealByPublicId(publicId: string): Promise<Deal | null> {
  return (await db.selectFrom("deals").selectAll().where("public_id", "=", publicId).executeTakeFirst()) ?? null;
}

/** Whether a deal on the inquiry, not ended unpaid nor refunded, took its fee off the price (agreeDeal). */
export async function dealHoldsFeeOf(inquiryId: number): Promise<boolean> {
  const deal = await db
    .selectFrom("deals")
    .select("id")
    .where("inquiry_id", "=", inquiryId)
    .where("fee_credited_cents", ">", 0)
    .where("status", "in", [...LIVE_DEAL_STATUSES, "refunding"])
    .executeTakeFirst();
  return deal !== undefined;
}

/**
 * A deal's status as it is now, read after a conditional UPDATE matched nothing (inside its transaction when
 * given one): the deal the caller read before may be older than a concurrent step the UPDATE waited for.
 */
export async function dealStatusNow(id: number, executor: Executor = db): Promise<DealStatus> {
  const row = await executor.selectFrom("deals").select("status").where("id", "=", id).executeTakeFirstOrThrow();
  return row.status;
}

/** The deal a signed link names; null for a wrong id or signature (the caller answers the plain 404). */
export async function findSignedDeal(side: DealSide, publicId: string, sig: string | null): Promise<Deal | null> {
  if (!verifyLinkSignature(SIDE_PURPOSE[side], publicId, sig)) return null;
  return findDealByPublicId(publicId);
}

/** The words a deal's status is shown with, on both sides' pages and in the admin's list. */
export const DEAL_STATUS_TEXT: Record<DealStatus, string> = {
  checkout: "Waiting for payment",
  agreed: "Deal agreed",
  paid: "Paid: waiting for the transfer details",
  transferred: "Transfer details sent",
  completed: "Completed",
  cancelled: "Cancelled",
  expired: "Expired unpaid",
  refunding: "Being refunded",
  refunded: "Refunded",
  lost: "Sold to another buyer: refunded",
};
