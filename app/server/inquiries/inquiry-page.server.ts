// What the inquiry page shows to its buyer or its owner (issue 23): the domain, the fee and when it was
// paid, the reply deadline, the status in words and the conversation, oldest first. Only for a correctly
// signed link to an inquiry that was paid: anything else is null (the route answers 404, with no hint).
import type { Inquiry } from "../../../db/schema";
import { INQUIRY_STATUS_TEXT, inquiryStatus, isInquiryOpen, type InquiryStatusKey } from "../../lib/inquiry-status";
import { formatUsd } from "../../lib/money";
import { db } from "../db/database.server";
import { now } from "../runtime/clock.server";
import { formatUtc } from "./refund-promise.server";
import { verifyInquirySignature, type InquirySide } from "./signed-links.server";

export interface ConversationEntry {
  key: string;
  author: "buyer" | "owner";
  /**
   * "email": the owner said they replied by email (no text here); "marked": the admin marked it answered;
   * "site": the admin wrote as the owner.
   */
  kind: "message" | "email" | "marked" | "site";
  body: string;
  at: string;
}

export interface InquiryPageView {
  side: InquirySide;
  domainName: string;
  buyerName: string;
  fee: string;
  paidAt: string;
  deadline: string | null;
  status: InquiryStatusKey;
  statusText: string;
  open: boolean;
  entries: ConversationEntry[];
}

/** The signed link's inquiry, paid (or refunded since); null for anything else. */
export async function findSignedInquiry(
  side: InquirySide,
  publicId: string,
  sig: string | null,
): Promise<Inquiry | null> {
  if (!verifyInquirySignature(side, publicId, sig)) return null;
  const inquiry = await db.selectFrom("inquiries").selectAll().where("public_id", "=", publicId).executeTakeFirst();
  if (!inquiry || !inquiry.paid_at || (inquiry.status !== "paid" && inquiry.status !== "refunded")) return null;
  return inquiry;
}

type ConversationFacts = Pick<Inquiry, "id" | "message" | "created_at" | "answered_at" | "answered_via">;
type MessageRow = {
  id: number;
  inquiry_id: number;
  author: "buyer" | "owner";
  via: "page" | "site";
  body: string;
  created_at: string;
};

async function messagesOf(inquiryIds: number[]): Promise<MessageRow[]> {
  if (inquiryIds.length === 0) return [];
  return db
    .selectFrom("inquiry_messages")
    .select(["id", "inquiry_id", "author", "via", "body", "created_at"])
    .where("inquiry_id", "in", inquiryIds)
    .orderBy("id")
    .execute();
}

/** The buyer's first message, the messages since, and an owner's reply made by email, by time. */
function buildConversation(inquiry: ConversationFacts, rows: MessageRow[]): ConversationEntry[] {
  const entries: (ConversationEntry & { time: string })[] = [
    {
      key: "first",
      author: "buyer",
      kind: "message",
      body: inquiry.message,
      at: "",
      time: inquiry.created_at,
    },
    ...rows.map((row) => ({
      key: `m${row.id}`,
      author: row.author,
      kind: row.via === "site" ? ("site" as const) : ("message" as const),
      body: row.body,
      at: "",
      time: row.created_at,
    })),
  ];
  if (inquiry.answered_at && (inquiry.answered_via === "owner_link" || inquiry.answered_via === "admin")) {
    const kind = inquiry.answered_via === "admin" ? ("marked" as const) : ("email" as const);
    entries.push({
      key: "answered",
      author: "owner",
      kind,
      body: "",
      at: "",
      time: inquiry.answered_at,
    });
  }
  // A stable sort: messages written in the same millisecond keep their id order.
  entries.sort((a, b) => a.time.localeCompare(b.time));
  return entries.map(({ time, ...entry }) => ({
    ...entry,
    at: formatUtc(time),
  }));
}

export async function conversationOf(inquiry: ConversationFacts): Promise<ConversationEntry[]> {
  return buildConversation(inquiry, await messagesOf([inquiry.id]));
}

/** Conversations of a page of inquiries (the admin inbox) in one query, by inquiry id. */
export async function conversationsOf(inquiries: ConversationFacts[]): Promise<Map<number, ConversationEntry[]>> {
  const rows = await messagesOf(inquiries.map((inquiry) => inquiry.id));
  return new Map(
    inquiries.map((inquiry) => [
      inquiry.id,
      buildConversation(
        inquiry,
        rows.filter((row) => row.inquiry_id === inquiry.id),
      ),
    ]),
  );
}

export function inquiryStatusOf(inquiry: Inquiry): InquiryStatusKey {
  return inquiryStatus(inquiry, now().getTime());
}

export async function inquiryPageView(side: InquirySide, inquiry: Inquiry): Promise<InquiryPageView> {
  const status = inquiryStatusOf(inquiry);
  return {
    side,
    domainName: inquiry.domain_name,
    buyerName: inquiry.name,
    fee:
      inquiry.provider === "credit"
        ? "Paid with credit"
        : inquiry.amount_cents > 0
          ? formatUsd(inquiry.amount_cents)
          : "Free",
    paidAt: formatUtc(inquiry.paid_at!),
    deadline: inquiry.reply_deadline_at ? formatUtc(inquiry.reply_deadline_at) : null,
    status,
    statusText: INQUIRY_STATUS_TEXT[status],
    open: isInquiryOpen(status),
    entries: await conversationOf(inquiry),
  };
}
