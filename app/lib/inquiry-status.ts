// Where a paid inquiry stands, in the words its buyer and owner read on the inquiry page (issue 23).

export type InquiryStatusKey = "waiting" | "replied" | "refunded" | "credited" | "closed";

export const INQUIRY_STATUS_TEXT: Record<InquiryStatusKey, string> = {
  waiting: "Waiting for the owner's reply",
  replied: "The owner replied",
  refunded: "Refunded",
  credited: "Credited",
  closed: "Closed",
};

export interface InquiryStatusFacts {
  status: string;
  answered_at: string | null;
  reply_deadline_at: string | null;
  /** Set when the buyer took a credit for the fee instead of a refund. */
  credited_at?: string | null;
}

/**
 * Refunded and credited say what became of the fee; an answered inquiry stays open for replies; an
 * unanswered one waits until its deadline and is closed after it (its fee is refunded or credited then).
 */
export function inquiryStatus(inquiry: InquiryStatusFacts, nowMs: number): InquiryStatusKey {
  if (inquiry.status === "refunded") return "refunded";
  if (inquiry.credited_at) return "credited";
  if (inquiry.status !== "paid") return "closed";
  if (inquiry.answered_at) return "replied";
  if (inquiry.reply_deadline_at && Date.parse(inquiry.reply_deadline_at) <= nowMs) return "closed";
  return "waiting";
}

/** Replies can be written while the inquiry waits for the owner or after the owner replied. */
export function isInquiryOpen(key: InquiryStatusKey): boolean {
  return key === "waiting" || key === "replied";
}
