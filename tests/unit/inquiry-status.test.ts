import { describe, expect, it } from "vitest";
import { INQUIRY_STATUS_TEXT, inquiryStatus, isInquiryOpen } from "../../app/lib/inquiry-status";

const NOW = Date.parse("2026-05-10T12:00:00Z");
const paid = {
  status: "paid",
  answered_at: null,
  reply_deadline_at: "2026-05-12T12:00:00Z",
};

describe("inquiryStatus", () => {
  it("waits for the owner until the deadline, then is closed", () => {
    expect(inquiryStatus(paid, NOW)).toBe("waiting");
    expect(inquiryStatus(paid, Date.parse("2026-05-12T12:00:00Z"))).toBe("closed");
  });
  it("stays replied (and open) after the deadline once answered", () => {
    const answered = { ...paid, answered_at: "2026-05-11T00:00:00Z" };
    expect(inquiryStatus(answered, Date.parse("2026-06-01T00:00:00Z"))).toBe("replied");
    expect(isInquiryOpen("replied")).toBe(true);
  });
  it("says what became of the fee before anything else", () => {
    expect(inquiryStatus({ ...paid, status: "refunded", answered_at: "2026-05-11T00:00:00Z" }, NOW)).toBe("refunded");
    expect(inquiryStatus({ ...paid, credited_at: "2026-05-13T00:00:00Z" }, NOW)).toBe("credited");
    for (const key of ["refunded", "credited", "closed"] as const) expect(isInquiryOpen(key)).toBe(false);
  });
  it("uses the issue's words", () => {
    expect(Object.values(INQUIRY_STATUS_TEXT)).toEqual([
      "Waiting for the owner's reply",
      "The owner replied",
      "Refunded",
      "Credited",
      "Closed",
    ]);
  });
});
