import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { acceptsGzip } from "../../app/server/http/compression.server";
import { isDirectPageRequest } from "../../app/server/http/direct-page.server";

const request = (fields: { method?: string; url?: string; headers?: Record<string, string> }) =>
  ({
    method: fields.method ?? "GET",
    url: fields.url ?? "/",
    headers: fields.headers ?? {},
    socket: {},
  }) as unknown as IncomingMessage;

describe("acceptsGzip", () => {
  it("takes gzip or * unless refused with q=0", () => {
    expect(acceptsGzip("gzip, deflate, br")).toBe(true);
    expect(acceptsGzip("br;q=1.0, gzip;q=0.8")).toBe(true);
    expect(acceptsGzip("*")).toBe(true);
    expect(acceptsGzip(undefined)).toBe(false);
    expect(acceptsGzip("br")).toBe(false);
    expect(acceptsGzip("identity")).toBe(false);
    expect(acceptsGzip("gzip;q=0")).toBe(false);
    expect(acceptsGzip("gzip; q=0.000, br")).toBe(false);
  });
});

describe("which requests take the direct page path", () => {
  it("only GET and HEAD of /, /domain/{name} and /contact/{name}", () => {
    for (const url of [
      "/",
      "/?q=nova&page=2",
      "/domain/velora",
      "/domain/example.co.uk",
      "/contact/velora",
      "/DOMAIN/Velora",
    ]) {
      expect(isDirectPageRequest(request({ url })), url).toBe(true);
      expect(isDirectPageRequest(request({ url, method: "HEAD" })), url).toBe(true);
    }
    expect(isDirectPageRequest(request({ url: "/domain/velora", method: "POST" }))).toBe(false);
    for (const url of [
      "/domain/",
      "/domain/a/b",
      "/domain/velora/",
      "/domain/..",
      "/domain/.",
      "/domain/%2e%2E",
      "/domain/a%2Ecom",
      "//domain/x",
      "/admin",
      "/payment/velora",
      "/favicon.svg",
      "/assets/x.js",
    ]) {
      expect(isDirectPageRequest(request({ url })), url).toBe(false);
    }
  });
});
