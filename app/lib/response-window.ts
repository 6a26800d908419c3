// The owner's response window (the refund promise) and the reply-time trust signal: shared by the
// admin settings form (min/max attributes), its server validation and the domain page; and the promise's
// one wording (feePromiseText).
// No zod here: the domain page imports this module, and zod would add 26 KB of gzipped JavaScript to it.

export const RESPONSE_WINDOW_DAYS = { min: 1, max: 60, default: 7 } as const;
export const RESPONSE_WINDOW_FIELD = "responseWindowDays";
export const RESPONSE_WINDOW_MESSAGE = `The response window must be a whole number of days from ${RESPONSE_WINDOW_DAYS.min} to ${RESPONSE_WINDOW_DAYS.max}.`;

/** "" and other non-numbers fail; "7" -> 7. */
export function parseResponseWindowDays(input: unknown): { ok: true; days: number } | { ok: false; message: string } {
  const text = typeof input === "string" ? input.trim() : "";
  if (!/^\d{1,3}$/.test(text)) return { ok: false, message: RESPONSE_WINDOW_MESSAGE };
  const days = Number(text);
  return days >= RESPONSE_WINDOW_DAYS.min && days <= RESPONSE_WINDOW_DAYS.max
    ? { ok: true, days }
    : { ok: false, message: RESPONSE_WINDOW_MESSAGE };
}

/** What happens to the fee when the owner stays silent: the admin's "When the owner does not reply in time". */
export type SilencePolicy = "refund" | "choose";

const daysText = (days: number) => `${days} ${days === 1 ? "day" : "days"}`;

/**
 * The promise made to a buyer who pays the fee (issue #26 item 6), in one wording everywhere: the domain
 * page, beside the Pay button, the success page, the emails, the admin's help text and the refund policy.
 */
export function feePromiseText(policy: SilencePolicy, days: number): string {
  return policy === "choose"
    ? `If the owner doesn't reply within ${daysText(days)}, you choose: a refund or a credit for another name.`
    : `Refunded automatically if the owner doesn't reply within ${daysText(days)}.`;
}

/** The Response window's help text in the admin settings: the promise as buyers read it. */
export function responseWindowHelp(policy: SilencePolicy, days: number): string {
  return `Buyers are promised: "${feePromiseText(policy, days)}" Applies to inquiries paid from now on.`;
}

/** The trust signal needs this many answered inquiries before it is shown. */
export const MIN_ANSWERED_FOR_REPLY_TIME = 3;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Median of reply durations in ms, rounded up to whole days (at least 1); null below the minimum count. */
export function typicalReplyDays(replyDurationsMs: number[]): number | null {
  if (replyDurationsMs.length < MIN_ANSWERED_FOR_REPLY_TIME) return null;
  const sorted = [...replyDurationsMs].map((ms) => Math.max(0, ms)).sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return Math.max(1, Math.ceil(median / DAY_MS));
}

export function replyTimeText(days: number): string {
  return `Owner usually replies within ${days} ${days === 1 ? "day" : "days"}`;
}
