import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, isPrivatePath, securityHeaders } from "../../app/server/http/security.server";
import pino from "pino";
import { logRequest, loggablePath, requestLine } from "../../app/server/http/request-log.server";
import { logLevel, logOptions } from "../../app/server/runtime/log.server";

describe("security headers", () => {
  it("treats /admin and /payment sections, in any case or escape, as private; look-alikes are not", () => {
    for (const path of [
      "/admin",
      "/admin/",
      "/admin/x/y",
      "/Admin",
      "/%61dmin",
      "//admin",
      "/admin.data",
      "/payment/abc",
      "/payment.data",
      "/owner",
      "/owner/domains/3",
      "/owner.data",
    ]) {
      expect(isPrivatePath(path), path).toBe(true);
    }
    for (const path of ["/", "/administrator", "/paymentx", "/domain/admin", "/owner-reply/x", "/%E0%A4%A"])
      expect(isPrivatePath(path), path).toBe(false);
  });

  it("adds Stripe and a test Stripe server to the policy of payment pages only", () => {
    const payment = contentSecurityPolicy({
      nonce: "abc",
      path: "/payment/velora",
      stripeApiBase: "http://127.0.0.1:4010/v1",
    });
    expect(payment).toContain("script-src 'self' 'nonce-abc' https://js.stripe.com");
    expect(payment).toContain("connect-src 'self' https://api.stripe.com");
    expect(payment).toContain("http://127.0.0.1:4010");
    const home = contentSecurityPolicy({ nonce: "abc", path: "/", stripeApiBase: "http://127.0.0.1:4010/v1" });
    expect(home).not.toMatch(/stripe|4010/);
    expect(home).toContain("frame-src 'none'");
  });

  it("sends HSTS only to a request that came over HTTPS", () => {
    const hsts = (https: boolean) => securityHeaders({}, { path: "/", nonce: "n", https })["Strict-Transport-Security"];
    expect(hsts(true)).toBe("max-age=31536000; includeSubDomains");
    expect(hsts(false)).toBeUndefined();
  });
});

describe("request log lines", () => {
  it("redacts secret-looking query values and keeps the rest", () => {
    expect(loggablePath("/payment/x?session_id=cs_123&step=success")).toBe(
      "/payment/x?session_id=%5Bredacted%5D&step=success",
    );
    expect(loggablePath("/?q=velora&page=2")).toBe("/?q=velora&page=2");
    // An inquiry's reference and its signed link open its pages (issue #34 item 1): never kept in the log.
    expect(
      loggablePath("/payment/x.data?inquiry=AbC123xyz0AbC&session_id=cs_1&edit=Qq1&payment_intent=pi_1&_routes=r"),
    ).toBe(
      "/payment/x.data?inquiry=%5Bredacted%5D&session_id=%5Bredacted%5D&edit=%5Bredacted%5D&payment_intent=%5Bredacted%5D&_routes=r",
    );
    expect(loggablePath("/inquiry/AbC123xyz0AbC?sig=s3cr3t")).toBe("/inquiry/AbC123xyz0AbC?sig=%5Bredacted%5D");
    expect(loggablePath("/admin?password=hunter2&Email=a%40b.c&API_KEY=1")).not.toMatch(/hunter2|a%40b|=1/);
    expect(loggablePath(`/${"a".repeat(5000)}`).length).toBeLessThan(600);
  });

  it("is one line of JSON even for hostile paths", () => {
    let written = "";
    const logger = pino(logOptions, { write: (chunk: string) => void (written += chunk) });
    logRequest(
      { requestId: "r1", method: "GET", originalUrl: '/x\n{"fake":1}', status: 404, durationMs: 1.234, aborted: false },
      logger,
    );
    const line = written.trimEnd();
    expect(line.split("\n")).toHaveLength(1);
    expect(JSON.parse(line)).toMatchObject({
      msg: "request",
      requestId: "r1",
      status: 404,
      durationMs: 1.2,
      level: "info",
    });
  });
});

describe("the request line made without pino's serializer", () => {
  it.each([
    { requestId: "r2", method: "GET", originalUrl: "/domain/velora", status: 200, durationMs: 0.46, aborted: false },
    {
      requestId: "r3",
      method: "POST",
      originalUrl: '/x?token=s&q="a"\n\u2028',
      status: 404,
      durationMs: 12,
      aborted: true,
    },
  ])("is the line pino writes, key for key and in the same order ($originalUrl)", (entry) => {
    let written = "";
    const logger = pino(logOptions, { write: (chunk: string) => void (written += chunk) });
    logRequest(entry, logger);
    const direct = requestLine(entry);
    expect(direct.endsWith("\n")).toBe(true);
    expect(direct.trimEnd().split("\n")).toHaveLength(1);
    const withoutTime = (line: string) => {
      const { time, ...rest } = JSON.parse(line) as Record<string, unknown>;
      expect(Date.parse(String(time))).not.toBeNaN();
      return JSON.stringify(rest);
    };
    expect(withoutTime(direct)).toBe(withoutTime(written));
  });
});

describe("LOG_LEVEL", () => {
  it("takes pino's levels in any case, and info when unset or not a level", () => {
    expect(logLevel("WARN")).toBe("warn");
    expect(logLevel(" debug ")).toBe("debug");
    expect(logLevel(undefined)).toBe("info");
    expect(logLevel("loud")).toBe("info");
  });

  it("leaves out lines below the level", () => {
    let written = "";
    const logger = pino(
      { ...logOptions, level: logLevel("warn") },
      { write: (chunk: string) => void (written += chunk) },
    );
    logRequest(
      { requestId: "r2", method: "GET", originalUrl: "/", status: 200, durationMs: 1, aborted: false },
      logger,
    );
    expect(written).toBe("");
    logRequest(
      { requestId: "r3", method: "GET", originalUrl: "/", status: 503, durationMs: 1, aborted: false },
      logger,
    );
    expect(JSON.parse(written)).toMatchObject({ level: "error", msg: "request", requestId: "r3", status: 503 });
  });
});
