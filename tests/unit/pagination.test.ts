import { describe, expect, it } from "vitest";
import { pageWindow } from "../../app/lib/pagination";

describe("pageWindow", () => {
  it("links every page of a short list", () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(2, 5)).toEqual([1, 2, 3, 4, 5]);
  });

  it("on a long list: the first, the last and the pages around the current one, with gaps", () => {
    expect(pageWindow(1, 120)).toEqual([1, 2, "gap", 120]);
    expect(pageWindow(60, 120)).toEqual([1, "gap", 59, 60, 61, "gap", 120]);
    expect(pageWindow(120, 120)).toEqual([1, "gap", 119, 120]);
  });

  it("never hides a single page behind a gap", () => {
    expect(pageWindow(4, 10)).toEqual([1, 2, 3, 4, 5, "gap", 10]);
    expect(pageWindow(7, 10)).toEqual([1, "gap", 6, 7, 8, 9, 10]);
  });
});
