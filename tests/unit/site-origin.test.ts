import { describe, expect, it } from "vitest";
import { siteOriginFor } from "../../app/lib/host";

// The rule behind landers.server.ts's siteOrigin (which adds env.PUBLIC_URL): pure, so importing it opens no database.
describe("siteOriginFor", () => {
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
      expect(siteOriginFor(request, undefined), url).toBe(new URL(url).origin);
    }
  });

  it("is http://localhost for a Host that is not a host name", () => {
    expect(siteOriginFor(new Request("http://example.com/", { headers: { host: "a b" } }), undefined)).toBe(
      "http://localhost",
    );
  });

  it("is PUBLIC_URL's origin when one is set, whatever the request's Host", () => {
    const request = new Request("http://127.0.0.1:3000/domain/velora", { headers: { host: "a b" } });
    expect(siteOriginFor(request, "https://names.example/shop/")).toBe("https://names.example");
  });
});
