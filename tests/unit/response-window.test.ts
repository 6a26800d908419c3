import { describe, expect, it } from "vitest";
import {
  feePromiseText,
  parseResponseWindowDays,
  responseWindowHelp,
  replyTimeText,
  RESPONSE_WINDOW_MESSAGE,
  typicalReplyDays,
} from "../../app/lib/response-window";

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

describe("response window setting", () => {
  it("accepts whole days from 1 to 60", () => {
    expect(parseResponseWindowDays("1")).toEqual({ ok: true, days: 1 });
    expect(parseResponseWindowDays(" 7 ")).toEqual({ ok: true, days: 7 });
    expect(parseResponseWindowDays("60")).toEqual({ ok: true, days: 60 });
  });

  it("refuses 0, 61, fractions, negatives, text and missing values with one message", () => {
    for (const value of ["0", "61", "7.5", "-3", "seven", "", "1e1", undefined, 7]) {
      expect(parseResponseWindowDays(value)).toEqual({ ok: false, message: RESPONSE_WINDOW_MESSAGE });
    }
  });
});

describe("typical reply time", () => {
  it("is hidden below three answered inquiries", () => {
    expect(typicalReplyDays([])).toBeNull();
    expect(typicalReplyDays([HOUR, 2 * DAY])).toBeNull();
  });

  it("is the median rounded up to whole days, at least one", () => {
    expect(typicalReplyDays([HOUR, 2 * HOUR, 3 * HOUR])).toBe(1);
    expect(typicalReplyDays([10 * DAY, 1.2 * DAY, 0.5 * DAY])).toBe(2);
    // Even count: the mean of the two middle values (2 d and 3.5 d -> 2.75 d -> 3).
    expect(typicalReplyDays([DAY, 2 * DAY, 3.5 * DAY, 9 * DAY])).toBe(3);
    expect(typicalReplyDays([3 * DAY, 3 * DAY, 3 * DAY])).toBe(3);
  });

  it("reads as a sentence", () => {
    expect(replyTimeText(1)).toBe("Owner usually replies within 1 day");
    expect(replyTimeText(4)).toBe("Owner usually replies within 4 days");
  });
});

describe("the fee's promise (one wording everywhere)", () => {
  it("follows the silence policy and the window", () => {
    expect(feePromiseText("refund", 7)).toBe("Refunded automatically if the owner doesn't reply within 7 days.");
    expect(feePromiseText("refund", 1)).toBe("Refunded automatically if the owner doesn't reply within 1 day.");
    expect(feePromiseText("choose", 3)).toBe(
      "If the owner doesn't reply within 3 days, you choose: a refund or a credit for another name.",
    );
    expect(responseWindowHelp("choose", 1)).toBe(
      'Buyers are promised: "If the owner doesn\'t reply within 1 day, you choose: a refund or a credit for another name." Applies to inquiries paid from now on.',
    );
  });
});
