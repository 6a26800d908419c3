import { describe, expect, it } from "vitest";
import { centsToDollarText, dollarsToCents, formatUsd } from "../../app/lib/money";

describe("dollarsToCents", () => {
  it.each([
    ["19.99", 1999],
    ["0", 0],
    ["20", 2000],
    ["20.5", 2050],
    ["$5.00", 500],
    [" 7.1 ", 710],
  ])("%s -> %i", (input, cents) => expect(dollarsToCents(input)).toBe(cents));

  it.each(["", "abc", "-1", "1.999", "1e3", "NaN", "Infinity", "1,000", "1e309", "9".repeat(20)])(
    "refuses %s",
    (input) => expect(dollarsToCents(input)).toBeNull(),
  );
});

describe("formatting", () => {
  it("shows whole dollars without cents and other amounts with two decimals", () => {
    expect(formatUsd(2_500_000)).toBe("$25,000");
    expect(formatUsd(1999)).toBe("$19.99");
    expect(formatUsd(2050)).toBe("$20.50");
  });
  it("stores dollars as text with two decimals", () => {
    expect(centsToDollarText(1999)).toBe("19.99");
    expect(centsToDollarText(0)).toBe("0.00");
  });
});
