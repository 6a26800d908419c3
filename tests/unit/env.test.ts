import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// The same parser the server runs at start; tests/integration/startup.test.ts proves the process stops on it.
const dataDir = mkdtempSync(path.join(tmpdir(), "env-test-"));
const base = { DATABASE_URL: `file:${path.join(dataDir, "app.db")}` };
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
// The module also parses process.env when loaded: point it at the temporary folder first.
process.env.DATABASE_URL = base.DATABASE_URL;
const { parseEnv } = await import("../../app/server/env.server");

describe("configuration parsing", () => {
  it("accepts nothing set and fills the documented defaults", () => {
    const env = parseEnv({ ...base });
    expect(env).toMatchObject({ PORT: 3000, SITE_NAME: "DomainVault", SEED_DEMO: "true", LOG_REQUESTS: "true", TRUST_PROXY: "false" });
    expect(env.MAX_BODY_BYTES).toBe(1024 * 1024);
    expect(env.SSE_HEARTBEAT_MS).toBe(20_000);
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
    ["TRUST_PROXY", "1"],
    ["MAX_BODY_BYTES", "-1"],
    ["MAX_UPLOAD_BYTES", "lots"],
    ["SSE_HEARTBEAT_MS", "0"],
    ["STRIPE_API_BASE", "not a url"],
    ["SMTP_URL", "mail server"],
  ])("%s=%s is refused with a message naming the variable", (variable, value) => {
    expect(() => parseEnv({ ...base, ADMIN_PASSWORD: "long-enough", [variable]: value })).toThrow(new RegExp(`\\b${variable}:`));
  });

  it("needs ADMIN_PASSWORD with ADMIN_EMAIL", () => {
    expect(() => parseEnv({ ...base, ADMIN_EMAIL: "owner@example.test" })).toThrow("ADMIN_PASSWORD: required when ADMIN_EMAIL is set");
  });
});
