import { describe, expect, it } from "vitest";
import { CARD_DECLINED_MESSAGE, checkTestCard, parseExpiry } from "../../app/lib/test-card";

const today = new Date("2026-11-22T00:00:00Z");
const card = (number: string, expiry = "12/30", cvc = "123") => checkTestCard({ number, expiry, cvc }, today);

describe("test provider card rules", () => {
  it("approves 4242 4242 4242 4242 with or without spaces", () => {
    expect(card("4242 4242 4242 4242")).toEqual({ outcome: "approved" });
    expect(card("4242424242424242")).toEqual({ outcome: "approved" });
  });

  it("declines 4000 0000 0000 0002 with Stripe's message", () => {
    expect(card("4000 0000 0000 0002")).toEqual({ outcome: "declined", message: CARD_DECLINED_MESSAGE });
  });

  it("names what is wrong with an invalid card", () => {
    expect(card("")).toMatchObject({ outcome: "invalid", message: "Your card number is incomplete." });
    expect(card("4242 4242 4242 4241")).toMatchObject({ outcome: "invalid", message: "Your card number is invalid." });
    expect(card("4242424242424242", "")).toMatchObject({ message: "Your card's expiration date is incomplete." });
    expect(card("4242424242424242", "13/30")).toMatchObject({ message: "Your card's expiration month is invalid." });
    expect(card("4242424242424242", "10/26")).toMatchObject({ message: "Your card's expiration date is in the past." });
    expect(card("4242424242424242", "11/26")).toEqual({ outcome: "approved" });
    expect(card("4242424242424242", "12/30", "")).toMatchObject({
      message: "Your card's security code is incomplete.",
    });
    expect(card("4242424242424242", "12/30", "12a")).toMatchObject({
      message: "Your card's security code is invalid.",
    });
  });

  it("refuses real-looking cards in test mode", () => {
    expect(card("5555 5555 5555 4444")).toMatchObject({ outcome: "declined" });
  });

  it("reads MM/YY", () => {
    expect(parseExpiry("04 / 29")).toEqual({ month: 4, year: 2029 });
    expect(parseExpiry("0429")).toEqual({ month: 4, year: 2029 });
    expect(parseExpiry("April")).toBeNull();
  });
});
