import { describe, expect, it } from "vitest";
import {
  DomainEntrySchema,
  loginLimitedText,
  parseFee,
  parseBuyNowPrice,
  parseFeeAmount,
  parsePrice,
  TEXT,
} from "../../app/lib/admin-forms";

describe("admin form rules", () => {
  it("parses a price as a decimal of at least 0", () => {
    expect(parsePrice("1500")).toBe(150_000);
    expect(parsePrice("19.99")).toBe(1999);
    expect(parsePrice("$2,500.5")).toBe(250_050);
    expect(parsePrice("0")).toBe(0);
    for (const bad of ["", "-1", "abc", "1e3", "12..3", "99999999999"]) expect(parsePrice(bad)).toBeNull();
  });

  it("reads a buy now price: empty is none; not an amount, $0 or less, or over $100,000,000 is refused", () => {
    expect(parseBuyNowPrice("  ")).toEqual({ cents: null });
    expect(parseBuyNowPrice("$25,000.50")).toEqual({ cents: 2_500_050 });
    expect(parseBuyNowPrice("100000000")).toEqual({ cents: 10_000_000_000 });
    for (const bad of ["abc", "1e3", "12..3"]) expect(parseBuyNowPrice(bad)).toEqual({ error: TEXT.buyNowNotAnAmount });
    for (const bad of ["0", "0.00", "-5", "- $3"])
      expect(parseBuyNowPrice(bad)).toEqual({ error: TEXT.buyNowNotPositive });
    expect(parseBuyNowPrice("100000000.01")).toEqual({ error: TEXT.buyNowTooLarge });
  });

  it("reads only a plain decimal as a fee: anything else is an error, never a silent $0 or $15", () => {
    for (const bad of ["abc", "1e3", "Infinity", "NaN", "0x10", "1,5", "1,500", "$5", "5 5", ".", "+5", "１２"]) {
      expect(parseFee(bad), bad).toEqual({ error: TEXT.feeNotANumber });
    }
    expect(parseFee("0.001")).toEqual({ error: TEXT.feeTooManyDecimals });
    expect(parseFee("19.999")).toEqual({ error: TEXT.feeTooManyDecimals });
    expect(parseFee("0")).toEqual({ cents: 0 });
    expect(parseFee("0.00")).toEqual({ cents: 0 });
    expect(parseFee(".5")).toEqual({ cents: 50 });
    expect(parseFee("5.")).toEqual({ cents: 500 });
    expect(parseFee("10000")).toEqual({ cents: 1_000_000 });
    expect(parseFee("10000.01")).toEqual({ error: TEXT.feeTooLarge });
  });

  it("only the form's empty field means 0; the shell's set-fee needs an amount", () => {
    expect(parseFee("")).toEqual({ cents: 0 });
    expect(parseFee("  ")).toEqual({ cents: 0 });
    expect(parseFeeAmount("")).toEqual({ error: TEXT.feeNotANumber });
    expect(parseFeeAmount("0.10")).toEqual({ error: TEXT.feeTooSmall });
    expect(parseFeeAmount("0")).toEqual({ cents: 0 });
  });

  it("refuses a fee a card cannot be charged", () => {
    expect(parseFee("24.99")).toEqual({ cents: 2499 });
    expect(parseFee("0.50")).toEqual({ cents: 50 });
    expect(parseFee("0.49")).toEqual({ error: TEXT.feeTooSmall });
    expect(parseFee("-3")).toEqual({ error: TEXT.feeTooSmall });
    expect(parseFee("20000")).toEqual({ error: TEXT.feeTooLarge });
  });

  it("validates a portfolio entry", () => {
    expect(
      DomainEntrySchema.parse({ domainName: " WWW.Example.COM ", askingPrice: "10", trackingId: "t", ownerEmail: "" }),
    ).toEqual({
      domainName: "example.com",
      askingPrice: 1000,
      trackingId: "t",
      ownerEmail: "",
      buyNowPrice: null,
      categories: [],
      pitch: null,
    });
    expect(
      DomainEntrySchema.parse({
        domainName: "a.com",
        askingPrice: "1",
        trackingId: "t",
        ownerEmail: "",
        categories: "Tech |  Short  names| tech",
      }).categories,
    ).toEqual([
      { slug: "tech", name: "Tech" },
      { slug: "short-names", name: "Short names" },
    ]);
    const bad = DomainEntrySchema.safeParse({
      domainName: "nodot",
      askingPrice: "x",
      trackingId: "",
      ownerEmail: "nope",
    });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((issue) => issue.path[0])).toEqual([
      "domainName",
      "askingPrice",
      "trackingId",
      "ownerEmail",
    ]);
  });
});

describe("loginLimitedText", () => {
  it("states the Retry-After wait, rounded up to whole minutes, or seconds in the last minute", () => {
    expect(loginLimitedText(900)).toBe("Too many failed sign-in attempts. Please wait 15 minutes and try again.");
    expect(loginLimitedText(241)).toContain("Please wait 5 minutes");
    expect(loginLimitedText(60)).toContain("Please wait 1 minute and");
    expect(loginLimitedText(59)).toContain("Please wait 59 seconds");
    expect(loginLimitedText(1)).toContain("Please wait 1 second and");
  });
});

describe("owner email", () => {
  const owner = (ownerEmail: string) =>
    DomainEntrySchema.safeParse({ domainName: "example.com", askingPrice: "10", trackingId: "t", ownerEmail });

  it("stores an internationalized domain in the ASCII form a browser's email field submits", () => {
    expect(owner(" owner@münchen.de ").data?.ownerEmail).toBe("owner@xn--mnchen-3ya.de");
    expect(owner("Owner@BÜCHER.example").data?.ownerEmail).toBe("Owner@xn--bcher-kva.example");
    expect(owner("owner@xn--mnchen-3ya.de").data?.ownerEmail).toBe("owner@xn--mnchen-3ya.de");
    expect(owner("Jane.Doe@Example.COM").data?.ownerEmail).toBe("Jane.Doe@Example.COM");
  });

  it("accepts and refuses what the browser's type=email check does", () => {
    for (const good of [
      "owner@example.com",
      "o'brien+deals@example.co.uk",
      "a!#$%&*/=?^_`{|}~-@example.com",
      "owner@mail-server",
    ]) {
      expect(owner(good).success, good).toBe(true);
    }
    for (const bad of [
      "nope",
      "owner@",
      "@example.com",
      "owner@münchen.de/x",
      "owner@-bad.com",
      "owner@a..com",
      "müller@example.com",
      "a b@example.com",
      "owner@münchen.de.",
    ]) {
      expect(owner(bad).error?.issues[0]?.message, bad).toBe("Owner email must be a valid email address");
    }
  });
});
