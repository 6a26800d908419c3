import { describe, expect, it } from "vitest";
import { resolveReturnTo } from "../../app/lib/return-to";

describe("resolveReturnTo", () => {
  it("keeps a path under the area with its query, as a browser would resolve it", () => {
    expect(resolveReturnTo("/admin", "/admin")).toBe("/admin");
    expect(resolveReturnTo("/admin?q=price&edit=4", "/admin")).toBe("/admin?q=price&edit=4");
    expect(resolveReturnTo("/admin/inquiries?domain=velora.com", "/admin")).toBe("/admin/inquiries?domain=velora.com");
    expect(resolveReturnTo("/admin/x/../inquiries", "/admin")).toBe("/admin/inquiries");
    expect(resolveReturnTo("/admin\\inquiries", "/admin")).toBe("/admin/inquiries");
    expect(resolveReturnTo("/admin/inquiries#top", "/admin")).toBe("/admin/inquiries");
  });

  it("refuses what resolves outside the site or the area, whatever the raw text starts with", () => {
    for (const value of [
      "/admin/..//evil.example/x",
      "/admin/%2e%2e//evil.example/x",
      "/admin/%2E%2E/%2e%2e//evil.example",
      "/admin/.%2e//evil.example",
      "/admin/\n..//evil.example",
      "/admin/\t..//evil.example",
      "/admin\\..\\\\evil.example",
      "/\\evil.example",
      "/\t/evil.example",
      "/\n/evil.example",
      "//evil.example/admin",
      "https://evil.example/admin",
      "http://return-to.invalid/admin",
      "javascript:alert(1)//admin",
      "admin",
      "",
      "/administrator",
      "/admin-evil",
      "/owner",
      "/",
    ])
      expect(resolveReturnTo(value, "/admin"), JSON.stringify(value)).toBe("/admin");
  });

  it("answers the fallback when one is given", () => {
    expect(resolveReturnTo("/admin/..//evil.example/x", "/admin", "/admin/inquiries")).toBe("/admin/inquiries");
    expect(resolveReturnTo("/owner/domains/3", "/owner")).toBe("/owner/domains/3");
  });

  it("never answers a path another site could be read from", () => {
    for (const value of ["/admin//evil.example", "/admin/%2f%2fevil.example", "/admin?next=//evil.example"]) {
      const path = resolveReturnTo(value, "/admin");
      expect(path.startsWith("/admin")).toBe(true);
      expect(new URL(path, "http://site.test").origin).toBe("http://site.test");
    }
  });
});
