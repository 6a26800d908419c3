import { describe, expect, it } from "vitest";
import {
  isValidDomainName,
  lookupCandidates,
  normalizeDomainName,
  parseStoredDomainName,
  shortDomainName,
} from "../../app/lib/domain-name";

describe("shortDomainName", () => {
  it.each([
    ["example.com", "example"],
    ["www.example.com", "example"],
    ["WWW.Example.COM", "example"],
    ["example.io", "example.io"],
    ["www.example.co.uk", "example.co.uk"],
    ["sub.example.com", "sub.example"],
    [".com", ".com"],
  ])("%s -> %s", (input, expected) => expect(shortDomainName(input)).toBe(expected));
});

describe("lookupCandidates", () => {
  it("tries {name}.com first, then the raw name, for a name with no dot", () => {
    expect(lookupCandidates("example")).toEqual(["example.com", "example"]);
  });
  it("uses a name with a dot as it is", () => {
    expect(lookupCandidates("example.io")).toEqual(["example.io"]);
  });
  it("lower-cases and drops www.", () => {
    expect(lookupCandidates("WWW.Example.COM")).toEqual(["example.com"]);
  });
  it.each(["..%2F..%2Fetc", "../etc/passwd", "a b", "<script>", "x".repeat(300), "", "-bad", "a..b"])(
    "refuses %s without throwing",
    (input) => expect(lookupCandidates(input)).toEqual([]),
  );
});

describe("normalizeDomainName", () => {
  it("trims, lower-cases and removes a trailing dot", () => {
    expect(normalizeDomainName("  Example.COM. ")).toBe("example.com");
  });
  it("turns IDN labels into punycode", () => {
    expect(normalizeDomainName("bücher.de")).toBe("xn--bcher-kva.de");
    expect(normalizeDomainName("MÜNCHEN.com")).toBe("xn--mnchen-3ya.com");
  });
  it("refuses names with spaces, slashes or other URL parts", () => {
    for (const bad of ["a b.com", "a/b.com", "a@b.com", "a:80.com", "a?.com", "%2e.com"]) {
      expect(normalizeDomainName(bad)).toBeNull();
    }
  });
});

describe("isValidDomainName", () => {
  it("accepts labels of 1 to 63 characters", () => {
    expect(isValidDomainName("a.co")).toBe(true);
    expect(isValidDomainName(`${"a".repeat(63)}.com`)).toBe(true);
    expect(isValidDomainName(`${"a".repeat(64)}.com`)).toBe(false);
  });
  it("refuses names over 253 characters", () => {
    const long = Array.from({ length: 5 }, () => "a".repeat(60)).join(".") + ".com";
    expect(long.length).toBeGreaterThan(253);
    expect(isValidDomainName(long)).toBe(false);
  });
  it("refuses empty labels and labels that start or end with a hyphen", () => {
    for (const bad of ["a..com", ".a.com", "-a.com", "a-.com", "a_b.com"]) expect(isValidDomainName(bad)).toBe(false);
  });
});

describe("parseStoredDomainName", () => {
  it("needs a dot", () => {
    expect(parseStoredDomainName("example")).toBeNull();
    expect(parseStoredDomainName("Example.com")).toBe("example.com");
  });
});
