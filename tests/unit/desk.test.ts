import { describe, expect, it } from "vitest";
import { dueInText, MAILTO_QUOTE_CHARS, offerAgainstAsking, replyMailto } from "../../app/lib/desk";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe("the admin desk's words", () => {
  it("says how long until a reply is due, in the largest whole unit", () => {
    expect(dueInText(30_000)).toBe("now");
    expect(dueInText(-DAY)).toBe("now");
    expect(dueInText(MINUTE)).toBe("in 1 minute");
    expect(dueInText(59 * MINUTE)).toBe("in 59 minutes");
    expect(dueInText(HOUR)).toBe("in 1 hour");
    expect(dueInText(5 * HOUR + 20 * MINUTE)).toBe("in 5 hours");
    expect(dueInText(47 * HOUR)).toBe("in 47 hours");
    expect(dueInText(2 * DAY + HOUR)).toBe("in 2 days");
  });

  it("shows an offer against the asking price, rounded to a whole percent", () => {
    expect(offerAgainstAsking("$9,000", 2_450_000)).toBe("$9,000 — 37% of the $24,500 asking price");
    expect(offerAgainstAsking("9000 USD", 2_450_000)).toBe("$9,000 — 37% of the $24,500 asking price");
    expect(offerAgainstAsking("7.5k", 500_000)).toBe("$7,500 — 150% of the $5,000 asking price");
    expect(offerAgainstAsking("$1,234.56", 1_000_000)).toBe("$1,234.56 — 12% of the $10,000 asking price");
  });

  it("leaves an offer that is not one dollar amount as written, and says when there is none", () => {
    expect(offerAgainstAsking("make me an offer", 2_450_000)).toBe("make me an offer");
    expect(offerAgainstAsking("€5,000", 2_450_000)).toBe("€5,000");
    expect(offerAgainstAsking("$9,000", null)).toBe("$9,000");
    expect(offerAgainstAsking("$9,000", 0)).toBe("$9,000");
    expect(offerAgainstAsking("  ", 2_450_000)).toBe("No offer");
  });
});

describe("the reply by email link", () => {
  const inquiry = {
    email: "ada+offers@buyer.example",
    name: "Ada Buyer",
    domainName: "velora.com",
    message: "Would you take $9,000?\r\n\r\nThanks & regards",
    sentOn: "Nov 23, 2026",
  };

  it("writes to the buyer, about the name, quoting the message line by line", () => {
    const url = new URL(replyMailto(inquiry));
    expect(url.protocol).toBe("mailto:");
    expect(decodeURIComponent(url.pathname)).toBe("ada+offers@buyer.example");
    expect(url.searchParams.get("subject")).toBe("Re: Your inquiry about velora.com");
    expect(url.searchParams.get("body")).toBe(
      "\n\nOn Nov 23, 2026, Ada Buyer wrote:\n> Would you take $9,000?\n>\n> Thanks & regards\n",
    );
  });

  it("cuts a long message's quote so that mail programs open the link", () => {
    const body = new URL(replyMailto({ ...inquiry, message: "x".repeat(10_000) })).searchParams.get("body")!;
    expect(body).toContain(`> ${"x".repeat(MAILTO_QUOTE_CHARS)} [...]`);
    expect(body.length).toBeLessThan(MAILTO_QUOTE_CHARS + 100);
  });
});
