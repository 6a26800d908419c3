import { writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { removeDataDir, startAppServer } from "../support/app-server";
import { request, waitFor } from "../support/http";
import { useTempFolders } from "../support/temp-folders";
import { visibleText as visible } from "../support/visible-text";

// What an operator deploying the app meets at start: settings from a file, settings that stop the
// start with a message naming the variable, and the listen address. Payments that are never fake by
// accident: payments-test-mode.test.ts.

vi.setConfig({ testTimeout: 120_000 });

const folder = useTempFolders("domains-deploy-");

async function expectStartFailure(env: Record<string, string>): Promise<string> {
  const failure = await startAppServer({ env, dataDir: folder(), timeoutMs: 120_000 }).then(
    async (server) => {
      await server.stop();
      throw new Error(`the server started although it should not have:\n${server.output()}`);
    },
    (error: Error) => error,
  );
  expect(failure.message).toMatch(/server exited with 1/);
  expect(failure.message).not.toMatch(/\n\s+at .*\(/); // a message, not a stack trace
  return failure.message;
}

describe("bad settings stop the start with a message naming the variable", () => {
  it("a public https PUBLIC_URL without Stripe keys names STRIPE_SECRET_KEY and PAYMENTS=test", async () => {
    const output = await expectStartFailure({ PUBLIC_URL: "https://domains.example.com" });
    expect(output).toContain("STRIPE_SECRET_KEY:");
    expect(output).toContain("PAYMENTS=test");
  });

  it.each(["yes", "10.0.0.0/40", "proxy.example.com"])("TRUST_PROXY=%s names TRUST_PROXY", async (value) => {
    expect(await expectStartFailure({ TRUST_PROXY: value })).toContain("TRUST_PROXY:");
  });

  it("an ENV_FILE that cannot be read names ENV_FILE", async () => {
    expect(await expectStartFailure({ ENV_FILE: "/nonexistent/settings.env" })).toContain("ENV_FILE:");
  });
});

describe("settings from a file", () => {
  it("loads .env from the working directory; the real environment wins over it", async () => {
    const cwd = folder();
    writeFileSync(path.join(cwd, ".env"), 'SITE_NAME="Acme Names"\nLOG_REQUESTS=true\n# a comment\nSEED_DEMO=false\n');
    // The harness sets LOG_REQUESTS=false and SEED_DEMO=true in the real environment: those win.
    const server = await startAppServer({ cwd, env: { ENV_FILE: "" } });
    try {
      const home = await request(server, "/");
      expect(visible(home.body)).toContain("Acme Names");
      expect(server.output()).not.toContain('"msg":"request"');
      expect((server.db().prepare("SELECT count(*) AS n FROM domains").get() as { n: number }).n).toBeGreaterThan(0);
    } finally {
      await server.stop();
      removeDataDir(server);
    }
  });

  it("loads the file ENV_FILE names", async () => {
    const file = path.join(folder(), "domainvault.env");
    writeFileSync(file, "SITE_NAME=Named File Names\n");
    const server = await startAppServer({ env: { ENV_FILE: file } });
    try {
      expect(visible((await request(server, "/")).body)).toContain("Named File Names");
    } finally {
      await server.stop();
      removeDataDir(server);
    }
  });
});

describe("the listen address (HOST)", () => {
  /** Whether a TCP connection to address:port is accepted. */
  const accepts = (address: string, port: number) =>
    new Promise<boolean>((resolve) => {
      const socket = net.connect(port, address);
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });

  it("HOST=127.0.0.1 listens there only: another address of this machine (127.0.0.2) is refused", async () => {
    const server = await startAppServer({
      env: { HOST: "127.0.0.1", PUBLIC_URL: "https://domains.example.com", PAYMENTS: "test" },
    });
    try {
      const port = Number(new URL(server.url).port);
      expect(await accepts("127.0.0.1", port)).toBe(true);
      expect(await accepts("127.0.0.2", port)).toBe(false);
      expect((await request(server, "/healthz")).status).toBe(200);
      expect(server.output()).not.toContain("HOST is not set");
    } finally {
      await server.stop();
      removeDataDir(server);
    }
  });

  it("unset: every interface, as before HOST existed; with an https PUBLIC_URL the start warns about it", async () => {
    const server = await startAppServer({ env: { PUBLIC_URL: "https://domains.example.com", PAYMENTS: "test" } });
    try {
      const port = Number(new URL(server.url).port);
      expect(await accepts("127.0.0.2", port)).toBe(true);
      await waitFor(() => server.output().includes("HOST is not set"));
      expect(server.output()).toContain("set HOST=127.0.0.1 when that proxy runs on this machine");
    } finally {
      await server.stop();
      removeDataDir(server);
    }
  });

  it("a HOST this machine does not have stops the start with a message naming HOST", async () => {
    const output = await expectStartFailure({ HOST: "192.0.2.123" });
    expect(output).toContain("Cannot listen on 192.0.2.123 port 0 (HOST, PORT)");
  });
});
