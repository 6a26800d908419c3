import { describe, expect, it } from "vitest";
import { MAX_MESSAGE_CHARS, parseMessage } from "../../app/lib/inquiry-message";

describe("parseMessage", () => {
  it("trims and normalises line ends", () => {
    expect(parseMessage("  Hello\r\nthere \r")).toEqual({
      ok: true,
      text: "Hello\nthere",
    });
  });
  it("refuses empty, whitespace-only and non-text input", () => {
    for (const input of ["", "  \n\t", undefined, 42]) expect(parseMessage(input).ok).toBe(false);
  });
  it("counts characters, not UTF-16 units, up to the limit", () => {
    expect(parseMessage("😀".repeat(MAX_MESSAGE_CHARS)).ok).toBe(true);
    const over = parseMessage("a".repeat(MAX_MESSAGE_CHARS + 1));
    expect(over).toMatchObject({
      ok: false,
      message: "Your reply is 5,001 characters long; the limit is 5,000. Shorten it and send it again.",
    });
  });
  it("refuses NUL bytes and returns the text without them", () => {
    expect(parseMessage("a\0b")).toMatchObject({ ok: false, text: "ab" });
  });
});
