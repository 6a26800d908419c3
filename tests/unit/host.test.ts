import { describe, expect, it } from "vitest";
import { hostNameFromHeader, hostNamesFromConfig } from "../../app/lib/host";
import { parseXml } from "../support/xml";

describe("hostNameFromHeader", () => {
  it("lower-cases, drops the port, a trailing dot and a leading www.", () => {
    expect(hostNameFromHeader("Velora.COM")).toBe("velora.com");
    expect(hostNameFromHeader("www.velora.com")).toBe("velora.com");
    expect(hostNameFromHeader("velora.com:8080")).toBe("velora.com");
    expect(hostNameFromHeader("WWW.Velora.com.:443")).toBe("velora.com");
    expect(hostNameFromHeader("localhost:3000")).toBe("localhost");
    expect(hostNameFromHeader("127.0.0.1:3000")).toBe("127.0.0.1");
    expect(hostNameFromHeader("[::1]:3000")).toBe("[::1]");
    expect(hostNameFromHeader("xn--bcher-kva.com")).toBe("xn--bcher-kva.com");
  });

  it("answers null for missing and malformed headers instead of throwing", () => {
    for (const bad of [
      null,
      undefined,
      "",
      "[::1",
      "a..b",
      `${"a".repeat(300)}.com`,
      "evil.com@x",
      "a b",
      "velora.com:99999",
      "velora.com:x",
      "x:1:2",
      "-a.com",
      "a/b",
      "%41.com",
      "bücher.com",
    ]) {
      expect(hostNameFromHeader(bad), String(bad)).toBeNull();
    }
  });
});

describe("hostNamesFromConfig", () => {
  it("takes PUBLIC_URL's host and each EXTRA_HOSTS entry, normalised, skipping bad ones", () => {
    expect(
      hostNamesFromConfig(
        "https://WWW.Shop.example:8443/path",
        " alt.example , https://third.example/x,, bad host ,www.fourth.example:81",
      ),
    ).toEqual(["shop.example", "alt.example", "third.example", "fourth.example"]);
    expect(hostNamesFromConfig(undefined, undefined)).toEqual([]);
  });
});

describe("parseXml (test support)", () => {
  it("parses well-formed XML and rejects what is not", () => {
    const root = parseXml('<?xml version="1.0"?>\n<a x="1"><b>t &amp; &#60;</b><c/></a>\n');
    expect(root.children.map((child) => child.name)).toEqual(["b", "c"]);
    expect(root.children[0]!.text).toBe("t & <");
    for (const bad of ["<a><b></a>", "<a>x < y</a>", "<a>AT&T</a>", "<a></a><b></b>", "<a>&nope;</a>", "<a"]) {
      expect(() => parseXml(bad), bad).toThrow();
    }
  });
});
