import { describe, expect, it } from "vitest";
import {
  isValidDomainName,
  lookupCandidates,
  normalizeDomainName,
  parseStoredDomainName,
  shortDomainName,
  domainPagePath,
  displayDomainName,
  asciiSearchTerm,
} from "../../app/lib/domain-name";

describe("shortDomainName", () => {
  it.each([
    ["example.com", "example"],
    ["Example.COM", "example"],
    ["com.com", "com"],
    ["www.com", "www"],
    ["example.io", "example.io"],
    ["example.co.uk", "example.co.uk"],
    // Only "label.com" is shortened: anything more keeps its full name (the lookup finds it as it is).
    ["shop.us.com", "shop.us.com"],
    ["velora.com.com", "velora.com.com"],
    ["sub.example.com", "sub.example.com"],
    ["www.www.com", "www.www.com"],
    [".com", ".com"],
  ])("%s -> %s", (input, expected) => expect(shortDomainName(input)).toBe(expected));

  it("links every stored name to a page whose lookup finds that same name first", () => {
    for (const name of [
      "example.com",
      "com.com",
      "www.com",
      "shop.us.com",
      "velora.com.com",
      "www.www.com",
      "example.io",
      "a.b.c.de",
    ]) {
      const param = decodeURIComponent(domainPagePath(name).slice("/domain/".length));
      expect(lookupCandidates(param)[0], name).toBe(name);
    }
  });

  it("gives distinct names distinct links", () => {
    const names = ["com.com", "www.com", "velora.com", "velora.com.com", "shop.us.com", "shop.us"];
    expect(new Set(names.map(domainPagePath)).size).toBe(names.length);
  });
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
  it("drops a leading www. only when a name with a dot is left that is not itself a www. name", () => {
    expect(normalizeDomainName("www.example.com")).toBe("example.com");
    expect(normalizeDomainName("www.com")).toBe("www.com");
    expect(normalizeDomainName("www.www.com")).toBe("www.www.com");
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

describe("internationalized names", () => {
  it("shows a stored ASCII name in its Unicode form, and leaves other names alone", () => {
    expect(displayDomainName("xn--mnchen-3ya.de")).toBe("münchen.de");
    expect(displayDomainName("xn--e1afmkfd.xn--p1ai")).toBe("пример.рф");
    expect(displayDomainName("xn--r8jz45g.jp")).toBe("例え.jp");
    expect(displayDomainName("example.com")).toBe("example.com");
    expect(displayDomainName("xn--zz!.com")).toBe("xn--zz!.com");
    for (const name of ["münchen.de", "straße.de", "ドメイン名例.jp", "a-ü-b.com"])
      expect(displayDomainName(normalizeDomainName(name)!)).toBe(name);
  });
  it("searches for the ASCII form of a Unicode term", () => {
    expect(asciiSearchTerm("münchen")).toBe("xn--mnchen-3ya");
    expect(asciiSearchTerm("münchen.de")).toBe("xn--mnchen-3ya.de");
    expect(asciiSearchTerm("nova")).toBe("nova");
  });
  it("finds the inbox's and the pages' Unicode, short and www. forms", () => {
    expect(lookupCandidates("münchen.de")).toEqual(["xn--mnchen-3ya.de"]);
  });
});

describe("not domain names", () => {
  it("refuses an IP address and keeps www.www.com apart from www.com", () => {
    expect(parseStoredDomainName("1.2.3.4")).toBeNull();
    expect(parseStoredDomainName("www.www.com")).toBe("www.www.com");
    expect(parseStoredDomainName("www.com")).toBe("www.com");
    expect(parseStoredDomainName("123.example.com")).toBe("123.example.com");
  });
});
