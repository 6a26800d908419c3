import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeDataDir, startAppServer, type AppServer } from "../support/app-server";
import { requestWithHost } from "../support/raw-http";

// A malformed Host reaches the app as none at all (app/server/http/react-router-request.server.ts), which
// only the server shows; the rest of the landers and the search-engine tags: tests/in-process/landers.test.ts.

// A site name that tries to close the JSON-LD script: it is part of the Product's seller.
const SITE_NAME = `Acme </script><script>alert("owned")</script> & Co`;
let app: AppServer;

beforeAll(async () => {
  app = await startAppServer({
    env: {
      PUBLIC_URL: "https://shop.example.test",
      PAYMENTS: "test",
      EXTRA_HOSTS: "alt.example.test, www.third.example.test:8443",
      SITE_NAME,
    },
  });
});
afterAll(async () => {
  await app.stop();
  removeDataDir(app);
});

const isSplash = (body: string) =>
  body.includes("Premium Domain Acquisitions") && body.includes('href="/domain/velora"');

describe("host-based landers", () => {
  it("treats malformed Host headers as unknown, never as an error", async () => {
    const malformed = [
      "[::1",
      "a..b",
      `${"a".repeat(300)}.com`,
      "evil.com@x",
      "velora.com@evil.test",
      "velora.com:99999",
      "velora.com:x",
      "",
      "a b",
      "%zz",
      "x:1:2",
    ];
    for (const host of malformed) {
      const page = await requestWithHost(app.url, "/", host);
      expect(page.status, JSON.stringify(host)).toBe(200);
      expect(isSplash(page.body), JSON.stringify(host)).toBe(true);
    }
    // Still a normal 404 elsewhere, and the server is still fine.
    expect((await requestWithHost(app.url, "/domain/velora", "[::1")).status).toBe(200);
    expect((await requestWithHost(app.url, "/healthz", "velora.com")).status).toBe(200);
  });
});
