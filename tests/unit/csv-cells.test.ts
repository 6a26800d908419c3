import { describe, expect, it } from "vitest";
import { guardCell, unguardCell } from "../../app/lib/csv-cells";

describe("guardCell", () => {
  it("puts a ' before a formula start at the cell's start and after ; and ,", () => {
    expect(guardCell("=1+1")).toBe("'=1+1");
    expect(guardCell("note;=1+1")).toBe("note;'=1+1");
    expect(guardCell("note,=1+1")).toBe("note,'=1+1");
    expect(guardCell("a;+b,-c;@d")).toBe("a;'+b,'-c;'@d");
    expect(guardCell("\tx;\ry")).toBe("'\tx;'\ry");
    expect(guardCell(";;=x")).toBe(";;'=x");
    expect(guardCell("'=x;''-y")).toBe("''=x;'''-y");
  });

  it("leaves other text as it is", () => {
    for (const value of ["", "velora.com", "a = b", "x, -5%", "x; =1", "2026-01-01T00:00:00.000Z", "'quoted", "e-mail"])
      expect(guardCell(value)).toBe(value);
  });
});

describe("unguardCell", () => {
  it("gives back exactly what guardCell was given", () => {
    for (const value of [
      "=1+2",
      "note;=1+1",
      "'=already",
      "''-twice;'@after",
      "a,'b",
      "x;'y",
      "'",
      ";",
      "plain",
      "-x@example.com",
      "Tech | =Short",
      "\r\n=x",
      "",
    ])
      expect(unguardCell(guardCell(value)), JSON.stringify(value)).toBe(value);
  });

  it("leaves a ' that guardCell would not have added", () => {
    expect(unguardCell("'quoted")).toBe("'quoted");
    expect(unguardCell("a;'b")).toBe("a;'b");
  });
});
