// The admin's inquiry inbox: paid (and later refunded) inquiries, newest payment first.
import type { Inquiry } from "../../../db/schema";
import type { InboxStatus } from "../../lib/admin-forms";
import { lookupCandidates } from "../../lib/domain-name";
import { db } from "../db/database.server";
import { listOpenStrayPayments, markStrayPaymentSettled } from "../payments/stray-payments.server";
import { markRefundSettled } from "../refunds/refunds.server";
import { markInquiryAnswered as markAnsweredOnce } from "../inquiries/refund-promise.server";
import { listDeadLetters } from "../mail/mail.server";
import { INQUIRY_STATUS_TEXT, inquiryStatus, isInquiryOpen } from "../../lib/inquiry-status";
import { now } from "../runtime/clock.server";
import { conversationsOf, type ConversationEntry } from "../inquiries/inquiry-page.server";
import { salesOf, type InboxSale } from "../sale/inbox-sale.server";
import { answerOffer, sendOffer } from "../sale/offers.server";
import { parseOfferAmount } from "../../lib/offer-amount";
import { parseMessage } from "../../lib/inquiry-message";
import { postInquiryMessage } from "../inquiries/messages.server";
import { offerAgainstAsking } from "../../lib/desk";
import { inBucket, inboxCounts, inInbox } from "./desk.server";

export type InboxRow = Pick<
  Inquiry,
  | "id"
  | "domain_name"
  | "name"
  | "email"
  | "phone"
  | "offer"
  | "message"
  | "amount_cents"
  | "currency"
  | "provider"
  | "status"
  | "paid_at"
  | "answered_at"
  | "refunded_at"
  | "last_error"
  | "reply_deadline_at"
  | "refund_attempts"
  | "refund_next_attempt_at"
  | "created_at"
  | "answered_via"
  | "credited_at"
  | "asking_price_cents"
> & {
  conversation: ConversationEntry[];
  statusText: string;
  open: boolean;
  /** The offer against the asking price when the inquiry was made ("$9,000 — 37% of the $24,500 asking price"). */
  offerText: string;
  /** The latest open offer in the conversation, and the deal it led to (issue 37). */
  sale: InboxSale;
};

/** The columns of an inbox row, for the admin's inbox and an owner's desk. */
export const INBOX_COLUMNS = [
  "id",
  "domain_name",
  "name",
  "email",
  "phone",
  "offer",
  "message",
  "amount_cents",
  "currency",
  "provider",
  "status",
  "paid_at",
  "answered_at",
  "refunded_at",
  "last_error",
  "reply_deadline_at",
  "refund_attempts",
  "refund_next_attempt_at",
  "created_at",
  "answered_via",
  "credited_at",
  "asking_price_cents",
] as const;

/** Paid inquiries as inbox rows: each with its conversation, status text and whether it is open. */
export async function toInboxRows(
  found: Array<Omit<InboxRow, "conversation" | "statusText" | "open" | "offerText" | "sale">>,
): Promise<InboxRow[]> {
  const [conversations, sales] = await Promise.all([conversationsOf(found), salesOf(found.map((row) => row.id))]);
  const at = now().getTime();
  return found.map((row) => {
    const status = inquiryStatus(row, at);
    return {
      ...row,
      conversation: conversations.get(row.id) ?? [],
      statusText: INQUIRY_STATUS_TEXT[status],
      open: isInquiryOpen(status),
      offerText: offerAgainstAsking(row.offer, row.asking_price_cents),
      sale: sales.get(row.id) ?? { openOffer: null, deal: null },
    };
  });
}

export async function listInbox(options: { domain: string; status: InboxStatus; page: number; perPage: number }) {
  const nowIso = now().toISOString();
  let query = db.selectFrom("inquiries").where(inInbox);
  const domain = options.domain.trim().toLowerCase();
  // The same names a link would find: "velora", "www.velora.com" or "münchen.de" as well as the stored name.
  const names = domain ? [domain, ...lookupCandidates(domain)] : null;
  if (names) query = query.where("domain_name", "in", names);
  const filter = options.status;
  if (filter !== "all") query = query.where((eb) => inBucket(eb, filter, nowIso));
  // Each filter's count comes from the same condition as its list, so the two always agree.
  const counts = await inboxCounts(names, nowIso);
  const total = counts[filter];
  const pageCount = Math.max(1, Math.ceil(total / options.perPage));
  const page = Math.min(Math.max(1, options.page), pageCount);
  const found = await query
    .select(INBOX_COLUMNS)
    .orderBy("paid_at", "desc")
    .orderBy("id", "desc")
    .limit(options.perPage)
    .offset((page - 1) * options.perPage)
    .execute();
  const rows = await toInboxRows(found);
  return { rows, total, counts, page, pageCount };
}

/**
 * Marks a paid inquiry answered; true when it changed (a second click changes nothing). The same rule
 * as the owner's reply link (refund-promise.server.ts): only before the reply deadline, once.
 */
export async function markInquiryAnswered(id: number): Promise<boolean> {
  return (await markAnsweredOnce(id, "admin")).ok;
}

export type ProblemRefund = Pick<
  Inquiry,
  "id" | "domain_name" | "email" | "amount_cents" | "refund_state" | "refund_id" | "last_error" | "refund_last_error"
>;
export type { DeadLetter } from "../mail/mail.server";

/** What needs the admin's eyes: payments to refund, refunds pending or given up, undeliverable emails. */
export async function listPaymentProblems() {
  const strays = await listOpenStrayPayments();
  const refunds: ProblemRefund[] = await db
    .selectFrom("inquiries")
    .select([
      "id",
      "domain_name",
      "email",
      "amount_cents",
      "refund_state",
      "refund_id",
      "last_error",
      "refund_last_error",
    ])
    .where("status", "=", "paid")
    .where("refund_state", "in", ["pending", "gave_up"])
    .orderBy("id", "desc")
    .limit(100)
    .execute();
  const deadLetters = await listDeadLetters();
  return { strays, refunds, deadLetters };
}

/** The admin settled a refund that gave up: an inquiry's (by id) or a stray payment's (by payment id). */
export async function settleProblem(target: { inquiryId: number } | { paymentId: string }): Promise<boolean> {
  return "inquiryId" in target
    ? await markRefundSettled(target.inquiryId)
    : await markStrayPaymentSettled(target.paymentId);
}

export type AdminReplyResult = { ok: true } | { ok: false; error: string; text: string; status: number };

/** The admin answers a buyer as the owner from the inbox; the buyer is told the site sent it. */
export async function replyAsOwner(inquiryId: number, input: unknown): Promise<AdminReplyResult> {
  const parsed = parseMessage(input);
  if (!parsed.ok) return { ok: false, error: parsed.message, text: parsed.text, status: 400 };
  const inquiry = await db.selectFrom("inquiries").selectAll().where("id", "=", inquiryId).executeTakeFirst();
  if (!inquiry || !inquiry.paid_at)
    return { ok: false, error: "That inquiry does not exist.", text: parsed.text, status: 404 };
  const posted = await postInquiryMessage(inquiry, { author: "owner", via: "site" }, parsed.text);
  if (posted.ok) return { ok: true };
  return { ok: false, error: posted.message, text: parsed.text, status: posted.reason === "closed" ? 409 : 429 };
}

/** The admin answers the buyer's open offer as the owner (accept, decline, or counter with an amount). */
export async function answerOfferAsOwner(
  inquiryId: number,
  intent: "accept-offer" | "decline-offer" | "counter-offer",
  counterAmount: unknown,
): Promise<AdminReplyResult> {
  const typed = typeof counterAmount === "string" ? counterAmount : "";
  const inquiry = await db.selectFrom("inquiries").selectAll().where("id", "=", inquiryId).executeTakeFirst();
  if (!inquiry || !inquiry.paid_at)
    return { ok: false, error: "That inquiry does not exist.", text: typed, status: 404 };
  let result;
  if (intent === "counter-offer") {
    const amount = parseOfferAmount(typed);
    if (!amount.ok) return { ok: false, error: amount.message, text: typed, status: 400 };
    result = await sendOffer(inquiry, "owner", amount.cents, { counter: true, bySite: true });
  } else {
    result = await answerOffer(inquiry, "owner", intent === "accept-offer" ? "accept" : "decline", { bySite: true });
  }
  if (result.ok) return { ok: true };
  return { ok: false, error: result.message, text: typed, status: result.reason === "rate_limited" ? 429 : 409 };
}

export interface CreditSummary {
  issued: number;
  used: number;
  open: number;
  /** Fees kept (paid, not refunded) taken in money, in cents; and inquiries paid with a credit. */
  moneyFeesCents: number;
  creditPaid: number;
}

/** Credits issued, used and still open, and fees taken in money and in credit, counted apart. */
export async function creditSummary(): Promise<CreditSummary> {
  const at = now().toISOString();
  const credits = await db
    .selectFrom("credits")
    .select((eb) => [
      eb.fn.countAll<number>().as("issued"),
      eb.fn.count<number>("used_at").as("used"),
      eb.fn
        .sum<number>(
          eb
            .case()
            .when(eb.and([eb("used_at", "is", null), eb("expires_at", ">", at)]))
            .then(1)
            .else(0)
            .end(),
        )
        .as("open"),
    ])
    .executeTakeFirstOrThrow();
  const fees = await db
    .selectFrom("inquiries")
    .select((eb) => [
      eb.fn
        .sum<number>(eb.case().when("provider", "!=", "credit").then(eb.ref("amount_cents")).else(0).end())
        .as("money"),
      eb.fn.sum<number>(eb.case().when("provider", "=", "credit").then(1).else(0).end()).as("credit"),
    ])
    .where("status", "=", "paid")
    .executeTakeFirstOrThrow();
  return {
    issued: Number(credits.issued),
    used: Number(credits.used),
    open: Number(credits.open ?? 0),
    moneyFeesCents: Number(fees.money ?? 0),
    creditPaid: Number(fees.credit ?? 0),
  };
}
