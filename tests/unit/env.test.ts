import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// The same parser the server runs at start; tests/integration/startup.test.ts proves the process stops on it.
const dataDir = mkdtempSync(path.join(tmpdir(), "env-test-"));
const base = { DATABASE_URL: `file:${path.join(dataDir, "app.db")}` };
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
// The module also parses process.env when loaded: point it at the temporary folder first.
process.env.DATABASE_URL = base.DATABASE_URL;
const { parseEnv, ENV_VARIABLES } = await import("../../app/server/runtime/env.server");
const projectRoot = path.resolve(import.meta.dirname, "../..");

describe("configuration parsing", () => {
  it("accepts nothing set and fills the documented defaults", () => {
    const env = parseEnv({ ...base });
    expect(env).toMatchObject({
      PORT: 3000,
      SITE_NAME: "DomainVault",
      SEED_DEMO: "true",
      LOG_REQUESTS: "true",
      TRUST_PROXY: "false",
    });
    expect(env.MAX_BODY_BYTES).toBe(1024 * 1024);
    expect(env.SSE_HEARTBEAT_MS).toBe(20_000);
    expect(env.PASSWORD_HASH_COST).toBe(17); // OWASP's scrypt N=2^17; only tests lower it
    expect(env.LOG_LEVEL).toBe("info");
    expect(parseEnv({ ...base, LOG_LEVEL: " WARN " }).LOG_LEVEL).toBe("warn");
    expect(env.sessionSecret).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each([
    ["PORT", "abc"],
    ["PORT", "70000"],
    ["PORT", "3.5"],
    ["SITE_NAME", "x".repeat(81)],
    ["SITE_NAME", "   "],
    ["DATABASE_URL", "nonsense"],
    ["DATABASE_URL", "file:"],
    ["PUBLIC_URL", "not a url"],
    ["SEED_DEMO", "maybe"],
    ["ADMIN_EMAIL", "not-an-email"],
    ["ADMIN_PASSWORD", "12345"],
    ["SESSION_SECRET", "short"],
    ["LOG_REQUESTS", "yes"],
    ["HOST", "0.0.0.0; rm -rf"],
    ["LOG_LEVEL", "loud"],
    ["TRUST_PROXY", "yes"],
    ["TRUST_PROXY", "10.0.0.0/33"],
    ["TRUST_PROXY", "loopback,,10.0.0.1"],
    ["TRUST_PROXY", "proxy.example.com"],
    ["PAYMENTS", "paypal"],
    ["MAX_BODY_BYTES", "-1"],
    ["MAX_UPLOAD_BYTES", "lots"],
    ["SSE_HEARTBEAT_MS", "0"],
    ["PASSWORD_HASH_COST", "8"],
    ["STRIPE_API_BASE", "not a url"],
    ["SMTP_URL", "mail server"],
  ])("%s=%s is refused with a message naming the variable", (variable, value) => {
    expect(() => parseEnv({ ...base, ADMIN_PASSWORD: "long-enough", [variable]: value })).toThrow(
      new RegExp(`\\b${variable}:`),
    );
  });

  it("needs ADMIN_PASSWORD with ADMIN_EMAIL", () => {
    expect(() => parseEnv({ ...base, ADMIN_EMAIL: "owner@example.test" })).toThrow(
      "ADMIN_PASSWORD: required when ADMIN_EMAIL is set",
    );
  });
});

describe("TRUST_PROXY", () => {
  it.each([
    "true",
    "false",
    "1",
    "2",
    "loopback",
    "127.0.0.1",
    "10.0.0.0/8, 192.168.1.7",
    "loopback,uniquelocal",
    "::1",
    "fd00::/8",
  ])("accepts %s as express's trust proxy would", (value) => {
    expect(parseEnv({ ...base, TRUST_PROXY: value }).TRUST_PROXY).toBe(value);
  });
});

describe("payments are never fake by accident", () => {
  const keys = { STRIPE_SECRET_KEY: "sk_test_123", STRIPE_PUBLISHABLE_KEY: "pk_test_123" };
  it("uses the test provider only on a local address unless asked for", () => {
    expect(parseEnv({ ...base }).payments).toBe("test");
    for (const url of ["http://localhost:3000", "http://127.0.0.1:8080", "https://shop.localhost"]) {
      expect(parseEnv({ ...base, PUBLIC_URL: url }).payments).toBe("test");
    }
    expect(parseEnv({ ...base, PUBLIC_URL: "https://domains.example.com", PAYMENTS: "test" }).payments).toBe("test");
    expect(parseEnv({ ...base, PUBLIC_URL: "https://domains.example.com", ...keys }).payments).toBe("stripe");
    expect(parseEnv({ ...base, ...keys }).payments).toBe("stripe");
  });

  it("refuses to start a public site without Stripe keys, naming STRIPE_SECRET_KEY and PAYMENTS=test", () => {
    expect(() => parseEnv({ ...base, PUBLIC_URL: "https://domains.example.com" })).toThrow(
      /STRIPE_SECRET_KEY:.*PAYMENTS=test/,
    );
    expect(() => parseEnv({ ...base, PAYMENTS: "stripe" })).toThrow(/STRIPE_SECRET_KEY:/);
  });
});

describe(".env.example", () => {
  const example = readFileSync(path.join(projectRoot, ".env.example"), "utf8");
  const listed = new Map(
    [...example.matchAll(/^(#\s*)?([A-Z][A-Z0-9_]+)=(.*)$/gm)].map((match) => [
      match[2]!,
      { value: match[3]!.trim(), commented: Boolean(match[1]) },
    ]),
  );

  it("lists every variable the app reads, and no other", () => {
    expect([...listed.keys()].sort()).toEqual([...ENV_VARIABLES].sort());
  });

  it("names every variable the code reads from process.env", () => {
    const read = new Set<string>();
    const scan = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) scan(full);
        else if (/\.tsx?$/.test(entry.name))
          for (const match of readFileSync(full, "utf8").matchAll(/process\.env\.([A-Z][A-Z0-9_]+)/g))
            read.add(match[1]!);
      }
    };
    scan(path.join(projectRoot, "app"));
    scan(path.join(projectRoot, "db"));
    for (const name of read) expect(ENV_VARIABLES, name).toContain(name);
  });

  it("shows each default the parser fills in", () => {
    const defaults = parseEnv({ ...base }) as unknown as Record<string, unknown>;
    for (const [name, { value, commented }] of listed) {
      if (commented || name === "DATABASE_URL") continue;
      expect(String(defaults[name]), name).toBe(value);
    }
  });
});
