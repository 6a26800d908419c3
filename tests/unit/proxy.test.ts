import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { createRequestOrigin, parseTrustProxy } from "../../app/server/http/proxy.server";

// A request as node:http hands it over: the socket's peer address, TLS or not, and the headers.
function incoming(remoteAddress: string, headers: Record<string, string> = {}, encrypted = false): IncomingMessage {
  return { socket: { remoteAddress, encrypted }, connection: { remoteAddress }, headers } as unknown as IncomingMessage;
}

describe("client address and scheme through trusted proxies", () => {
  it("takes the rightmost hop no trusted proxy added: a client's own X-Forwarded-For is ignored", () => {
    const origin = createRequestOrigin({ trustProxy: "loopback" });
    // nginx: $proxy_add_x_forwarded_for keeps the client's value and appends the address it saw.
    expect(origin(incoming("127.0.0.1", { "x-forwarded-for": "6.6.6.6, 203.0.113.9" })).clientAddress).toBe(
      "203.0.113.9",
    );
    expect(origin(incoming("127.0.0.1", { "x-forwarded-for": "203.0.113.9" })).clientAddress).toBe("203.0.113.9");
    // Not from a trusted proxy: the header is the client's own and means nothing.
    expect(origin(incoming("198.51.100.7", { "x-forwarded-for": "6.6.6.6" })).clientAddress).toBe("198.51.100.7");
  });

  it("follows a chain of trusted proxies given as addresses and CIDRs", () => {
    const origin = createRequestOrigin({ trustProxy: "127.0.0.1, 10.0.0.0/8" });
    expect(origin(incoming("127.0.0.1", { "x-forwarded-for": "6.6.6.6, 203.0.113.9, 10.1.2.3" })).clientAddress).toBe(
      "203.0.113.9",
    );
  });

  it("trusts only the proxy in front with TRUST_PROXY=true: what the client wrote before it is ignored", () => {
    const origin = createRequestOrigin({ trustProxy: "true" });
    // nginx and Caddy append the address they saw to the client's own X-Forwarded-For.
    const appended = incoming("127.0.0.1", { "x-forwarded-for": "6.6.6.6, 203.0.113.9" });
    expect(origin(appended).clientAddress).toBe("203.0.113.9");
    expect(origin(incoming("192.0.2.1", { "x-forwarded-for": "203.0.113.9" })).clientAddress).toBe("203.0.113.9");
    expect(origin(incoming("192.0.2.1", { "x-forwarded-proto": "https" })).protocol).toBe("https");
  });

  it("counts hops when TRUST_PROXY is a number, and trusts nothing when false", () => {
    expect(
      createRequestOrigin({ trustProxy: "1" })(incoming("192.0.2.1", { "x-forwarded-for": "6.6.6.6, 203.0.113.9" }))
        .clientAddress,
    ).toBe("203.0.113.9");
    expect(
      createRequestOrigin({ trustProxy: "false" })(incoming("192.0.2.1", { "x-forwarded-for": "203.0.113.9" }))
        .clientAddress,
    ).toBe("192.0.2.1");
  });

  it("sees https behind a TLS proxy: from a trusted X-Forwarded-Proto, else from an https PUBLIC_URL", () => {
    const trusted = createRequestOrigin({ trustProxy: "loopback" });
    expect(trusted(incoming("127.0.0.1", { "x-forwarded-proto": "https" })).protocol).toBe("https");
    expect(trusted(incoming("127.0.0.1", { "x-forwarded-proto": "http, https" })).protocol).toBe("http");
    expect(trusted(incoming("198.51.100.7", { "x-forwarded-proto": "https" })).protocol).toBe("http");
    const behindTls = createRequestOrigin({ trustProxy: "false", publicUrl: "https://domains.example.com" });
    expect(behindTls(incoming("127.0.0.1")).protocol).toBe("https");
    expect(
      createRequestOrigin({ trustProxy: "false", publicUrl: "http://localhost:3000" })(incoming("127.0.0.1")).protocol,
    ).toBe("http");
  });

  it("refuses a TRUST_PROXY value express would not understand", () => {
    for (const value of ["yes", "10.0.0.0/33", "proxy.example.com", "loopback,,x", "1000"])
      expect(() => parseTrustProxy(value), value).toThrow();
  });
});
