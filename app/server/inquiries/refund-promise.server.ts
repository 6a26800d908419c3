// The refund promise on the inquiry page ("a full refund ... if the owner does not respond"), kept by
// the system, and worded the same everywhere (feePromiseText, app/lib/response-window.ts): when an inquiry is paid it gets a reply deadline (the response window setting), the
// buyer a receipt with that deadline and the owner a link to confirm the reply. An inquiry answered
// before the deadline is never refunded; one that is not is refunded by auto-refund.server.ts.
import type { Inquiry } from "../../../db/schema";
import { formatUsd } from "../../lib/money";
import { feePromiseText, RESPONSE_WINDOW_DAYS, type SilencePolicy } from "../../lib/response-window";
import { now, nowIso } from "../runtime/clock.server";
import { db } from "../db/database.server";
import type { Executor } from "../db/dialect.server";
import { queueEmail } from "../mail/mail.server";
import { inquiryPageUrl } from "./signed-links.server";
import { getSetting, setSetting } from "../catalog/settings.server";

export const RESPONSE_WINDOW_KEY = "response_window_days";
export const SILENCE_POLICY_KEY = "silence_policy";
export type { SilencePolicy };
export const BUYER_RECEIPT_KIND = "buyer_receipt";
const DAY_MS = 24 * 60 * 60 * 1000;

/** Days the owner has to reply; the default when the setting is missing or out of range. */
export async function getResponseWindowDays(): Promise<number> {
  const days = Number(await getSetting(RESPONSE_WINDOW_KEY));
  return Number.isInteger(days) && days >= RESPONSE_WINDOW_DAYS.min && days <= RESPONSE_WINDOW_DAYS.max
    ? days
    : RESPONSE_WINDOW_DAYS.default;
}

/**
 * "Let the buyer choose refund or credit" unless the admin chose "Refund automatically" (or the site
 * predates it). `executor`: read inside a fulfilment's transaction, for the emails it queues.
 */
export async function getSilencePolicy(executor: Executor = db): Promise<SilencePolicy> {
  return (await getSetting(SILENCE_POLICY_KEY, executor)) === "refund" ? "refund" : "choose";
}

export async function setSilencePolicy(policy: SilencePolicy): Promise<void> {
  await setSetting(SILENCE_POLICY_KEY, policy);
}

/** The promise in force for inquiries paid now, in its one wording (app/lib/response-window.ts). */
export async function currentFeePromise(): Promise<string> {
  const [policy, days] = await Promise.all([getSilencePolicy(), getResponseWindowDays()]);
  return feePromiseText(policy, days);
}

/** The whole days a paid inquiry's owner was given (its deadline never moves once fixed). */
export function promisedDays(inquiry: Pick<Inquiry, "paid_at" | "reply_deadline_at">): number {
  if (!inquiry.paid_at || !inquiry.reply_deadline_at) return RESPONSE_WINDOW_DAYS.default;
  return Math.max(1, Math.round((Date.parse(inquiry.reply_deadline_at) - Date.parse(inquiry.paid_at)) / DAY_MS));
}

/** Applies to inquiries paid from now on; a deadline already promised to a buyer never moves. */
export async function setResponseWindowDays(days: number): Promise<void> {
  if (!Number.isInteger(days) || days < RESPONSE_WINDOW_DAYS.min || days > RESPONSE_WINDOW_DAYS.max) {
    throw new RangeError(`The response window must be ${RESPONSE_WINDOW_DAYS.min}-${RESPONSE_WINDOW_DAYS.max} days`);
  }
  await setSetting(RESPONSE_WINDOW_KEY, String(days));
}

async function selectInquiry(id: number, executor: Executor = db): Promise<Inquiry | undefined> {
  return executor.selectFrom("inquiries").selectAll().where("id", "=", id).executeTakeFirst();
}

/**
 * Called inside the payment's fulfilment transaction, right after the inquiry became paid: fixes
 * its reply deadline (paid_at + the window, read before the transaction) once and returns the updated row.
 */
export async function openReplyWindow(inquiry: Inquiry, windowDays: number, executor: Executor = db): Promise<Inquiry> {
  if (inquiry.reply_deadline_at) return inquiry;
  const paidAt = inquiry.paid_at ? Date.parse(inquiry.paid_at) : now().getTime();
  const opened = await executor
    .updateTable("inquiries")
    .set({ reply_deadline_at: new Date(paidAt + windowDays * DAY_MS).toISOString() })
    .where("id", "=", inquiry.id)
    .where("reply_deadline_at", "is", null)
    .returningAll()
    .executeTakeFirst();
  return opened ?? (await selectInquiry(inquiry.id, executor))!;
}

const dateTime = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeStyle: "short", timeZone: "UTC" });
export function formatUtc(iso: string): string {
  return `${dateTime.format(new Date(iso))} UTC`;
}

/**
 * Appended to the owner's inquiry email: the inquiry's page (reply there, or say "I have replied by
 * email"), and the promise the buyer was given, in its one wording, with its deadline.
 */
export function ownerReplyLinkText(inquiry: Inquiry, policy: SilencePolicy): string {
  if (!inquiry.reply_deadline_at) return "";
  const lines = [
    "",
    "",
    `Reply to ${inquiry.name} on the inquiry's page (no sign-in needed). If you answer by email instead, say so there`,
    `with "I have replied by email":`,
    inquiryPageUrl("owner", inquiry.public_id),
  ];
  if (inquiry.amount_cents > 0) {
    const fee = formatUsd(inquiry.amount_cents);
    lines.push(
      "",
      `The buyer was promised a reply by ${formatUtc(inquiry.reply_deadline_at)}.`,
      inquiry.provider === "credit"
        ? "They paid with a credit: if you have not replied by then, they get a new credit, by email."
        : `Our promise to them: "${feePromiseText(policy, promisedDays(inquiry))}"`,
      ...(inquiry.provider === "credit"
        ? []
        : [
            policy === "choose"
              ? `If you have not replied by then, they choose: their fee of ${fee} refunded, or a credit for another name.`
              : `If you have not replied by then, their fee of ${fee} is refunded automatically.`,
          ]),
    );
  }
  return lines.join("\n");
}

/**
 * The buyer's receipt, queued in the fulfilment transaction; at most one per inquiry (outbox unique index).
 * States the promise (the silence policy read in that transaction) and the reply deadline.
 */
export async function queueBuyerReceipt(inquiry: Inquiry, executor: Executor = db): Promise<void> {
  if (inquiry.amount_cents <= 0 || !inquiry.paid_at || !inquiry.reply_deadline_at) return;
  const amount = formatUsd(inquiry.amount_cents);
  const credit = inquiry.provider === "credit";
  const policy = await getSilencePolicy(executor);
  const deadline = formatUtc(inquiry.reply_deadline_at);
  const promise = credit
    ? [`Our promise: if the owner does not respond by ${deadline},`, "you get a new credit for one inquiry, by email."]
    : [
        `Our promise: ${feePromiseText(policy, promisedDays(inquiry))}`,
        `The owner's reply is due by ${deadline}.`,
        policy === "choose"
          ? `If none comes, you choose on your inquiry's page: your fee of ${amount} refunded in full to your original payment method, or a credit for another name.`
          : `If none comes, your fee of ${amount} is refunded in full to your original payment method, automatically.`,
      ];
  await queueEmail(
    {
      kind: BUYER_RECEIPT_KIND,
      to: inquiry.email,
      subject: `Receipt: inquiry fee for ${inquiry.domain_name}`,
      text: [
        `Hello ${inquiry.name},`,
        "",
        `Thank you. Your inquiry for ${inquiry.domain_name} has been sent to the owner.`,
        "",
        `Domain: ${inquiry.domain_name}`,
        credit ? "Inquiry fee: paid with credit" : `Inquiry fee paid: ${amount} (${inquiry.currency.toUpperCase()})`,
        `Date: ${formatUtc(inquiry.paid_at)}`,
        `Reference: ${inquiry.public_id}`,
        "",
        ...promise,
        "You will get an email when that happens.",
        "",
        "View your inquiry, its status and the owner's replies (keep this link private):",
        inquiryPageUrl("buyer", inquiry.public_id),
      ].join("\n"),
      inquiryId: inquiry.id,
    },
    executor,
  );
}

export type MarkAnsweredResult =
  | { ok: true; inquiry: Inquiry }
  | {
      ok: false;
      reason: "not_found" | "already_answered" | "refunded" | "expired" | "not_paid";
      inquiry: Inquiry | null;
    };

/**
 * The one way an inquiry becomes answered: the owner's reply link and the admin inbox both call it.
 * Works once (answered_at IS NULL), only for a paid inquiry, and only before its deadline: after it
 * the buyer is owed the refund, so a late confirmation cannot cancel it.
 */
export async function markInquiryAnswered(inquiryId: number, via: "owner_link" | "admin"): Promise<MarkAnsweredResult> {
  const timestamp = nowIso();
  const result = await db
    .updateTable("inquiries")
    .set({ answered_at: timestamp, answered_via: via })
    .where("id", "=", inquiryId)
    .where("status", "=", "paid")
    .where("answered_at", "is", null)
    .where((eb) => eb.or([eb("reply_deadline_at", "is", null), eb("reply_deadline_at", ">", timestamp)]))
    .executeTakeFirst();
  if (result.numUpdatedRows === 1n) return { ok: true, inquiry: (await selectInquiry(inquiryId))! };
  const inquiry = (await selectInquiry(inquiryId)) ?? null;
  if (!inquiry) return { ok: false, reason: "not_found", inquiry };
  if (inquiry.status === "refunded") return { ok: false, reason: "refunded", inquiry };
  if (inquiry.answered_at) return { ok: false, reason: "already_answered", inquiry };
  if (inquiry.status !== "paid") return { ok: false, reason: "not_paid", inquiry };
  return { ok: false, reason: "expired", inquiry };
}
