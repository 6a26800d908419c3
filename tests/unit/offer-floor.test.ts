import { describe, expect, it } from "vitest";
import { parseOfferCents } from "../../app/lib/offer-floor";

describe("parseOfferCents", () => {
  it("reads the ways people write a dollar amount", () => {
    expect(parseOfferCents("$12,500")).toBe(1_250_000);
    expect(parseOfferCents("12500")).toBe(1_250_000);
    expect(parseOfferCents(" 12500.50 USD ")).toBe(1_250_050);
    expect(parseOfferCents("$ 900")).toBe(90_000);
    expect(parseOfferCents("7.5k")).toBe(750_000);
    expect(parseOfferCents("$1.2M")).toBe(120_000_000);
    expect(parseOfferCents("5000 dollars")).toBe(500_000);
    expect(parseOfferCents("0")).toBe(0);
  });

  it("gives null for anything that is not one dollar amount", () => {
    for (const text of [
      "",
      "make me an offer",
      "10-20k",
      "€5,000",
      "12,50",
      "1,2345",
      "$",
      "5000 EUR",
      "-100",
      "1e9",
      "12.345",
    ]) {
      expect(parseOfferCents(text), text).toBeNull();
    }
  });
});
