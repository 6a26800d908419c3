// Refund or credit when the owner stays silent (issue 23 item 3). Under the "choose" policy an unanswered
// paid inquiry is not refunded at its deadline: the buyer is emailed (once) and their page offers "Refund
// my fee" or "Take a credit instead". Without a choice within CREDIT_CHOICE_DAYS the refund scheduler
// refunds it as before. A choice is one conditional UPDATE (fee_choice IS NULL, no refund claimed, tried or
// under way, the policy read in the same statement), so of two tabs or two processes, or a choice and a
// refund pass, one wins; the scheduler's claim excludes a credited inquiry the same way. An inquiry paid
// with a credit is offered, and accepts, only a new credit, whatever the policy.
import { randomInt } from "node:crypto";
import type { ExpressionBuilder } from "kysely";
import type { Database as Schema, Inquiry } from "../../../db/schema";
import { formatUsd } from "../../lib/money";
import { db } from "../db/database.server";
import { inTransaction, type Executor } from "../db/dialect.server";
import { queueEmail } from "../mail/mail.server";
import { now, nowIso } from "../runtime/clock.server";
import { env } from "../runtime/env.server";
import { formatUtc, getSilencePolicy, SILENCE_POLICY_KEY, type SilencePolicy } from "./refund-promise.server";
import { inquiryPageUrl } from "./signed-links.server";
import { refundLeaseFree, refundTried } from "../refunds/refunds.server";

export const FEE_CHOICE_EMAIL_KIND = "fee_choice";
export const CREDIT_EMAIL_KIND = "credit_issued";
const DAY_MS = 24 * 60 * 60 * 1000;
const CREDIT_VALID_DAYS = 365;

/** When the buyer's time to choose ends: the reply deadline plus CREDIT_CHOICE_DAYS. */
export function choiceEndsAt(inquiry: Pick<Inquiry, "reply_deadline_at">): Date {
  return new Date(Date.parse(inquiry.reply_deadline_at!) + env.CREDIT_CHOICE_DAYS * DAY_MS);
}

/** The earliest reply deadline whose time to choose is still running at `at` (ISO). */
function choiceOpenAfter(at: string): string {
  return new Date(Date.parse(at) - env.CREDIT_CHOICE_DAYS * DAY_MS).toISOString();
}

/** Unanswered past its deadline, no choice made, no refund claimed, tried or under way (see refundTried). */
export function isChoosable(eb: ExpressionBuilder<Schema, "inquiries">, at: string) {
  return eb.and([
    eb("status", "=", "paid"),
    eb("answered_at", "is", null),
    eb("amount_cents", ">", 0),
    eb("reply_deadline_at", "is not", null),
    eb("reply_deadline_at", "<=", at),
    eb("fee_choice", "is", null),
    eb("credited_at", "is", null),
    eb("refund_state", "is", null),
    refundLeaseFree(eb, at),
    eb.not(refundTried(eb)),
  ]);
}

/**
 * A fee paid in money may be refunded or credited only as offered: under "Let the buyer choose refund or
 * credit" (read in the statement that records the choice, so that a switch to "Refund automatically" and
 * a choice give one outcome), after the offer was made and before the time to choose ends.
 */
function isOfferOpen(eb: ExpressionBuilder<Schema, "inquiries">, at: string) {
  const refundsAutomatically = eb
    .selectFrom("settings")
    .select("settings.key")
    .where("settings.key", "=", SILENCE_POLICY_KEY)
    .where("settings.value", "=", "refund" satisfies SilencePolicy);
  return eb.and([
    eb("provider", "!=", "credit"),
    eb("credit_offered_at", "is not", null),
    eb("reply_deadline_at", ">", choiceOpenAfter(at)),
    eb.not(eb.exists(refundsAutomatically)),
  ]);
}

/** What the buyer may choose now (the rules of isChoosable and isOfferOpen, for the page): both, only a credit, or nothing. */
export function choicesNow(inquiry: Inquiry, policy: SilencePolicy, at = now()): "refund-or-credit" | "credit" | null {
  const iso = at.toISOString();
  const choosable =
    inquiry.status === "paid" &&
    !inquiry.answered_at &&
    inquiry.amount_cents > 0 &&
    !!inquiry.reply_deadline_at &&
    inquiry.reply_deadline_at <= iso &&
    !inquiry.fee_choice &&
    !inquiry.credited_at &&
    !inquiry.refund_state &&
    (!inquiry.refund_lease_until || inquiry.refund_lease_until <= iso) &&
    inquiry.refund_attempts === 0 &&
    !inquiry.refund_next_attempt_at &&
    !inquiry.last_error;
  if (!choosable) return null;
  if (inquiry.provider === "credit") return "credit";
  const offerOpen =
    policy === "choose" && !!inquiry.credit_offered_at && inquiry.reply_deadline_at! > choiceOpenAfter(iso);
  return offerOpen ? "refund-or-credit" : null;
}

/** Emails each buyer whose inquiry just became choosable, once (credit_offered_at, and the outbox's one per kind). */
export async function offerChoices(): Promise<number> {
  if ((await getSilencePolicy()) !== "choose") return 0;
  const at = nowIso();
  const due = await db
    .selectFrom("inquiries")
    .select("id")
    .where((eb) => isChoosable(eb, at))
    .where("credit_offered_at", "is", null)
    .where("provider", "!=", "credit")
    .where("reply_deadline_at", ">", choiceOpenAfter(at))
    .orderBy("reply_deadline_at")
    .limit(100)
    .execute();
  let offered = 0;
  for (const { id } of due) {
    const done = await inTransaction(async (trx) => {
      const row = await trx
        .updateTable("inquiries")
        .set({ credit_offered_at: at })
        .where("id", "=", id)
        .where("credit_offered_at", "is", null)
        .where("provider", "!=", "credit")
        .where("reply_deadline_at", ">", choiceOpenAfter(at))
        .where((eb) => isChoosable(eb, at))
        .returningAll()
        .executeTakeFirst();
      if (!row) return false;
      const ends = formatUtc(choiceEndsAt(row).toISOString());
      await queueEmail(
        {
          kind: FEE_CHOICE_EMAIL_KIND,
          to: row.email,
          subject: `Refund or credit: the owner of ${row.domain_name} did not reply`,
          text: [
            `Hello ${row.name},`,
            "",
            `The owner of ${row.domain_name} did not reply to your inquiry by ${formatUtc(row.reply_deadline_at!)}.`,
            `As promised, your fee of ${formatUsd(row.amount_cents)} comes back to you.`,
            "On your inquiry's page you can choose:",
            "",
            "  - Refund my fee: the fee goes back to your original payment method.",
            "  - Take a credit instead: a code worth one inquiry at any fee on this site, valid for a year.",
            "",
            inquiryPageUrl("buyer", row.public_id),
            "",
            `Without a choice by ${ends}, your fee is refunded automatically.`,
          ].join("\n"),
          inquiryId: row.id,
        },
        trx,
      );
      return true;
    });
    if (done) offered += 1;
  }
  return offered;
}

export type ChoiceResult = { ok: true } | { ok: false; message: string };

/** Why a choice was not recorded, in the buyer's words (the conditional UPDATE decided; this only explains). */
async function refusal(inquiryId: number): Promise<ChoiceResult> {
  const inquiry = await db.selectFrom("inquiries").selectAll().where("id", "=", inquiryId).executeTakeFirstOrThrow();
  const refuse = (message: string): ChoiceResult => ({ ok: false, message });
  if (inquiry.credited_at || inquiry.fee_choice === "credit") return refuse("You already took a credit for this fee.");
  if (inquiry.status === "refunded") return refuse("Your fee has already been refunded.");
  const refunding =
    inquiry.fee_choice === "refund" ||
    inquiry.refund_state ||
    inquiry.refund_lease_until ||
    inquiry.refund_attempts > 0 ||
    inquiry.refund_next_attempt_at ||
    inquiry.last_error;
  if (refunding) return refuse("Your fee is already being refunded.");
  if (inquiry.answered_at) return refuse("The owner replied, so there is nothing to refund.");
  if (inquiry.provider === "credit")
    return refuse("You paid with a credit, so it comes back as a new credit, never as money.");
  const at = nowIso();
  if (inquiry.reply_deadline_at && inquiry.reply_deadline_at <= at) {
    if ((await getSilencePolicy()) === "refund")
      return refuse("Your fee is refunded automatically on this site, so there is nothing to choose.");
    if (inquiry.reply_deadline_at <= choiceOpenAfter(at))
      return refuse("The time to choose has ended: your fee will be refunded automatically.");
  }
  return refuse("This choice is not available for this inquiry.");
}

/** "Refund my fee": recorded once; the caller then refunds it through the scheduler's path. */
export async function chooseRefund(inquiryId: number): Promise<ChoiceResult> {
  const at = nowIso();
  const result = await db
    .updateTable("inquiries")
    .set({ fee_choice: "refund" })
    .where("id", "=", inquiryId)
    .where((eb) => eb.and([isChoosable(eb, at), isOfferOpen(eb, at)]))
    .executeTakeFirst();
  return result.numUpdatedRows === 1n ? { ok: true } : refusal(inquiryId);
}

/** A credit code: 12 symbols of an alphabet without look-alikes, grouped for reading (e.g. CR-7KQM-2XHD-9PWA). */
export function newCreditCode(): string {
  const alphabet = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";
  const symbols = Array.from({ length: 12 }, () => alphabet[randomInt(alphabet.length)]).join("");
  return `CR-${symbols.slice(0, 4)}-${symbols.slice(4, 8)}-${symbols.slice(8)}`;
}

/**
 * "Take a credit instead" (or a credit-paid inquiry's new credit, also the scheduler's): the choice, the
 * code and its email in one transaction.
 */
export async function chooseCredit(inquiryId: number): Promise<ChoiceResult> {
  const at = now();
  const iso = at.toISOString();
  const created = await inTransaction(async (trx) => {
    const row = await trx
      .updateTable("inquiries")
      .set({ fee_choice: "credit", credited_at: iso })
      .where("id", "=", inquiryId)
      .where((eb) => eb.and([isChoosable(eb, iso), eb.or([eb("provider", "=", "credit"), isOfferOpen(eb, iso)])]))
      .returningAll()
      .executeTakeFirst();
    if (!row) return false;
    const code = newCreditCode();
    const expiresAt = new Date(at.getTime() + CREDIT_VALID_DAYS * DAY_MS).toISOString();
    await trx
      .insertInto("credits")
      .values({
        code,
        source_inquiry_id: row.id,
        created_at: iso,
        expires_at: expiresAt,
      })
      .execute();
    await queueEmail(
      {
        kind: CREDIT_EMAIL_KIND,
        to: row.email,
        subject: `Your credit for one inquiry`,
        text: [
          `Hello ${row.name},`,
          "",
          row.provider === "credit"
            ? `The owner of ${row.domain_name} did not reply to your inquiry in time.\n` +
              "The credit you paid with comes back as a new one:"
            : `Instead of a refund of ${formatUsd(row.amount_cents)} for your inquiry about ${row.domain_name},\n` +
              "here is your credit:",
          "",
          `    ${code}`,
          "",
          'It pays for one inquiry at any fee on this site: enter it in the "Credit code" field of the inquiry form.',
          `It is valid until ${formatUtc(expiresAt)}.`,
        ].join("\n"),
        inquiryId: row.id,
      },
      trx,
    );
    return true;
  });
  return created ? { ok: true } : refusal(inquiryId);
}

/** The credit's code for the page that shows it once (after the choice); null once shown. */
export async function revealCreditOnce(inquiryId: number): Promise<{ code: string; expiresAt: string } | null> {
  const row = await db
    .updateTable("credits")
    .set({ shown_at: nowIso() })
    .where("source_inquiry_id", "=", inquiryId)
    .where("shown_at", "is", null)
    .returning(["code", "expires_at"])
    .executeTakeFirst();
  return row ? { code: row.code, expiresAt: formatUtc(row.expires_at) } : null;
}

export type FeeChoiceView =
  | { kind: "offer"; fee: string; endsAt: string }
  | { kind: "new-credit" }
  | { kind: "refunding" }
  | { kind: "credited"; credit: { code: string; expiresAt: string } | null }
  | null;

/** What the buyer's page says about the fee after a silent deadline; `reveal`: right after the credit choice. */
export async function feeChoiceView(inquiry: Inquiry, reveal: boolean): Promise<FeeChoiceView> {
  if (inquiry.credited_at)
    return {
      kind: "credited",
      credit: reveal ? await revealCreditOnce(inquiry.id) : null,
    };
  if (inquiry.status === "paid" && inquiry.fee_choice === "refund") return { kind: "refunding" };
  const choices = choicesNow(inquiry, await getSilencePolicy());
  if (choices === "credit") return { kind: "new-credit" };
  if (!choices) return null;
  return {
    kind: "offer",
    fee: formatUsd(inquiry.amount_cents),
    endsAt: formatUtc(choiceEndsAt(inquiry).toISOString()),
  };
}

/** Uses a credit for an inquiry: unused and unexpired, once (the conditional UPDATE decides between concurrent uses). */
export async function claimCredit(code: string, inquiryId: number, executor: Executor = db): Promise<boolean> {
  const at = nowIso();
  const claimed = await executor
    .updateTable("credits")
    .set({ used_at: at, used_by_inquiry_id: inquiryId })
    .where("code", "=", code)
    .where("used_at", "is", null)
    .where("expires_at", ">", at)
    .executeTakeFirst();
  return claimed.numUpdatedRows === 1n;
}

/** An inquiry paid with a credit whose owner stayed silent gets a new credit (never money), at its deadline. */
export async function recreditSilentCreditInquiries(): Promise<number> {
  const at = nowIso();
  const due = await db
    .selectFrom("inquiries")
    .select("id")
    .where("provider", "=", "credit")
    .where((eb) => isChoosable(eb, at))
    .limit(100)
    .execute();
  let credited = 0;
  for (const { id } of due) if ((await chooseCredit(id)).ok) credited += 1;
  return credited;
}
