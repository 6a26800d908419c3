// Replies inside the product (issue 23 item 2): a message is stored, emailed to the other side through
// the outbox (in the same transaction) and, from the owner, marks the inquiry answered for the refund
// promise. Whether the conversation takes a message is decided by conditional statements inside that
// transaction, so a reply racing the reply deadline's refund either counts or is refused, never both.
import { sql, type ExpressionBuilder } from "kysely";
import type { Database as Schema, Inquiry } from "../../../db/schema";
import { db } from "../db/database.server";
import { inTransaction, type Executor } from "../db/dialect.server";
import { createRateLimit } from "../http/rate-limit.server";
import { queueEmail } from "../mail/mail.server";
import { nowIso } from "../runtime/clock.server";
import { env } from "../runtime/env.server";
import { inquiryPageUrl } from "./signed-links.server";

export type MessageAuthor = { author: "buyer"; via: "page" } | { author: "owner"; via: "page" | "site" };

export type PostMessageResult =
  | { ok: true; messageId: number }
  | {
      ok: false;
      reason: "closed" | "rate_limited" | "refused";
      message: string;
      retryAfterSeconds?: number;
    };

export const CLOSED_MESSAGE = "This inquiry is closed: your reply was not sent.";
/** `inquiries.answered_via` of an inquiry answered by the owner's "Accept offers at or above" (offers.server.ts). */
export const AUTO_ACCEPT_VIA = "auto_accept";
/** INQUIRY_MESSAGES_PER_HOUR per inquiry and side ("buyer" or "owner", the admin's replies as the owner included). */
const messageLimit = createRateLimit({
  name: "inquiry-messages",
  limit: () => env.INQUIRY_MESSAGES_PER_HOUR,
  windowMs: 60 * 60 * 1000,
});

/** The owner the inquiry was sent to when paid (not the domain's owner now), else the admin. */
export function ownerAddressOf(inquiry: Inquiry): string {
  return inquiry.owner_email?.trim() || env.ADMIN_EMAIL || "";
}

async function hasOwnerMessage(inquiryId: number): Promise<boolean> {
  const row = await db
    .selectFrom("inquiry_messages")
    .select("id")
    .where("inquiry_id", "=", inquiryId)
    .where("author", "=", "owner")
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The inquiry takes a message while it is paid and either answered or before its deadline. From the
 * owner the same statement marks it answered (the first reply's time is kept). Returns false when closed.
 */
async function admitMessage(trx: Executor, inquiry: Inquiry, sender: MessageAuthor, at: string): Promise<boolean> {
  const open = (eb: ExpressionBuilder<Schema, "inquiries">) =>
    eb.or([eb("answered_at", "is not", null), eb("reply_deadline_at", "is", null), eb("reply_deadline_at", ">", at)]);
  const result = await trx
    .updateTable("inquiries")
    .set(
      sender.author === "owner"
        ? {
            answered_at: sql<string>`coalesce(answered_at, ${at})`,
            answered_via: sql<string>`coalesce(answered_via, ${sender.via})`,
          }
        : { id: sql<number>`id` },
    )
    .where("id", "=", inquiry.id)
    .where("status", "=", "paid")
    .where(open)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/**
 * Work done with the message, in its transaction (an offer's state, issue 37). Throwing rolls both back;
 * a `MessageRefused` then comes back as the refusal it carries.
 */
export type WithMessage = (trx: Executor, messageId: number, at: string) => Promise<void>;

export class MessageRefused extends Error {}

export async function postInquiryMessage(
  inquiry: Inquiry,
  sender: MessageAuthor,
  body: string,
  withMessage?: WithMessage,
): Promise<PostMessageResult> {
  // Each side has its own count, so that one side's messages never silence the other; the owner's
  // first reply (the one that keeps the fee) is never counted against them at all.
  const key = `${inquiry.id}:${sender.author}`;
  const limited = sender.author === "buyer" || (await hasOwnerMessage(inquiry.id));
  if (limited && !(await messageLimit.hit(key))) {
    const retryAfterSeconds = await messageLimit.retryAfterSeconds(key);
    return {
      ok: false,
      reason: "rate_limited",
      message: "Too many replies on this inquiry for now. Please wait a while and send it again.",
      retryAfterSeconds,
    };
  }
  const ownerAddress = ownerAddressOf(inquiry);
  const at = nowIso();
  let refused: string | null = null;
  const messageId = await inTransaction(async (trx) => {
    if (!(await admitMessage(trx, inquiry, sender, at))) return null;
    const row = await trx
      .insertInto("inquiry_messages")
      .values({
        inquiry_id: inquiry.id,
        author: sender.author,
        via: sender.via,
        body,
        created_at: at,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await withMessage?.(trx, row.id, at);
    await queueMessageEmail(trx, inquiry, sender, body, row.id, ownerAddress);
    return row.id;
  }).catch((error: unknown) => {
    if (!(error instanceof MessageRefused)) throw error;
    refused = error.message;
    return null;
  });
  if (messageId === null) {
    if (limited) await messageLimit.undo(key);
    if (refused !== null) return { ok: false, reason: "refused", message: refused };
    return { ok: false, reason: "closed", message: CLOSED_MESSAGE };
  }
  return { ok: true, messageId };
}

async function queueMessageEmail(
  trx: Executor,
  inquiry: Inquiry,
  sender: MessageAuthor,
  body: string,
  messageId: number,
  ownerAddress: string,
) {
  // One outbox row per message: the kind carries its id (the outbox keeps one message per kind and inquiry).
  if (sender.author === "owner") {
    const bySite = sender.via === "site" ? [`This reply was sent by ${env.SITE_NAME} on behalf of the owner.`, ""] : [];
    await queueEmail(
      {
        kind: `message_to_buyer_${messageId}`,
        to: inquiry.email,
        replyTo: ownerAddress || null,
        subject: `Reply from the owner of ${inquiry.domain_name}`,
        text: [
          `Hello ${inquiry.name},`,
          "",
          `The owner of ${inquiry.domain_name} replied to your inquiry:`,
          "",
          body,
          "",
          ...bySite,
          "Read the conversation and answer on your inquiry's page (keep this link private):",
          inquiryPageUrl("buyer", inquiry.public_id),
        ].join("\n"),
        inquiryId: inquiry.id,
      },
      trx,
    );
    return;
  }
  if (!ownerAddress) return;
  await queueEmail(
    {
      kind: `message_to_owner_${messageId}`,
      to: ownerAddress,
      replyTo: inquiry.email,
      subject: `Reply from ${inquiry.name} about ${inquiry.domain_name}`,
      text: [
        `${inquiry.name} replied about ${inquiry.domain_name}:`,
        "",
        body,
        "",
        "Read the conversation and answer on the inquiry's page (no sign-in needed):",
        inquiryPageUrl("owner", inquiry.public_id),
        "",
        `Reference: ${inquiry.public_id}`,
      ].join("\n"),
      inquiryId: inquiry.id,
    },
    trx,
  );
}
