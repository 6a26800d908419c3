import { describe, expect, it } from "vitest";
import { siteOrigin } from "../../app/server/catalog/landers.server";

describe("siteOrigin", () => {
  it("is the request URL's origin when the Host is sane, as URL parses it", () => {
    for (const url of [
      "http://example.com/domain/velora",
      "https://names.example:8443/domain/velora?x=1",
      "http://localhost:3000/",
      "http://[::1]:3000/contact/a",
      "https://xn--mnchen-3ya.de/",
      "http://example.com",
    ]) {
      const request = new Request(url, { headers: { host: "example.com" } });
      expect(siteOrigin(request), url).toBe(new URL(url).origin);
    }
  });

  it("is http://localhost for a Host that is not a host name", () => {
    expect(siteOrigin(new Request("http://example.com/", { headers: { host: "a b" } }))).toBe("http://localhost");
  });
});
