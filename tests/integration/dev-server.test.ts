// `npm run dev` runs server.ts with Vite in middleware mode: the same start-up, middleware and routes as
// the production server. Both run here on one database; their pages, security headers (the CSP with a
// nonce of its own per response) and live fee must agree.
import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeDataDir, runScript, startAppServer, type AppServer } from "../support/app-server";
import { chromiumLaunchOptions } from "../support/chromium";
import { request, waitFor } from "../support/http";

let production: AppServer;
let development: AppServer;

beforeAll(async () => {
  production = await startAppServer({ env: { LOG_REQUESTS: "true" } });
  // The same data folder: the same database (SQLite file or PostgreSQL database), seeded once.
  development = await startAppServer({
    development: true,
    dataDir: production.dataDir,
    env: { LOG_REQUESTS: "true" },
    timeoutMs: 180_000,
  });
}, 240_000);

afterAll(async () => {
  await development?.stop();
  await production?.stop();
  if (production) removeDataDir(production);
});

const SECURITY_HEADERS = [
  "x-content-type-options",
  "referrer-policy",
  "x-frame-options",
  "cross-origin-opener-policy",
  "permissions-policy",
];
const PAGES = [
  "/",
  "/domain/velora",
  "/contact/velora",
  "/admin",
  "/no-such-page",
  "/robots.txt",
  "/sitemap.xml",
  "/healthz",
];

/** The page as a reader sees it: its title and text, without scripts, styles and asset links. */
function readable(html: string): string {
  return html
    .replace(/<script\b[\s\S]*?<\/script>/gi, "")
    .replace(/<style\b[\s\S]*?<\/style>/gi, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

function nonceOf(csp: string | null): string {
  const match = /'nonce-([^']+)'/.exec(csp ?? "");
  expect(match, csp ?? "no CSP").not.toBeNull();
  return match![1]!;
}

/** Every executable script of the page carries the response's nonce. */
function expectScriptsNonced(html: string, nonce: string, what: string) {
  const scripts = [...html.matchAll(/<script\b([^>]*)>/gi)].map((match) => match[1]!);
  const executable = scripts.filter((attributes) => !/type="application\/(?:ld\+)?json"/.test(attributes));
  expect(executable.length, what).toBeGreaterThan(0);
  for (const attributes of executable) expect(attributes, what).toContain(`nonce="${nonce}"`);
}

describe("npm run dev and npm start", () => {
  it("say at start which mode they run in, and that the page cache is off in development", () => {
    const listening = (server: AppServer) =>
      JSON.parse(
        server
          .output()
          .split("\n")
          .find((line) => line.includes('"msg":"listening"'))!,
      );
    expect(listening(production)).toMatchObject({ mode: "production", pageCache: true });
    expect(listening(development)).toMatchObject({ mode: "development", pageCache: false });
  });

  it("serve the same pages with the same security headers, each with a CSP nonce of its own", async () => {
    for (const path of PAGES) {
      const [prod, dev] = [await request(production, path), await request(development, path)];
      expect(dev.status, path).toBe(prod.status);
      expect(dev.headers.get("content-type"), path).toBe(prod.headers.get("content-type"));
      for (const name of SECURITY_HEADERS)
        expect(dev.headers.get(name), `${path} ${name}`).toBe(prod.headers.get(name));
      expect(dev.headers.get("x-request-id"), path).toMatch(/^[0-9a-f-]{36}$/);
      const [prodNonce, devNonce] = [
        nonceOf(prod.headers.get("content-security-policy")),
        nonceOf(dev.headers.get("content-security-policy")),
      ];
      expect(devNonce).not.toBe(prodNonce);
      const withoutNonce = (csp: string | null) => csp?.replace(/'nonce-[^']+'/, "'nonce'");
      expect(withoutNonce(dev.headers.get("content-security-policy")), path).toBe(
        withoutNonce(prod.headers.get("content-security-policy")),
      );
      if (!prod.headers.get("content-type")?.startsWith("text/html")) {
        if (path !== "/healthz")
          expect(dev.body, path).toBe(
            prod.body
              .replaceAll(production.url, development.url)
              .replaceAll(new URL(production.url).host, new URL(development.url).host),
          );
        continue;
      }
      expect(readable(dev.body), path).toBe(readable(prod.body));
      expectScriptsNonced(prod.body, prodNonce, `production ${path}`);
      expectScriptsNonced(dev.body, devNonce, `development ${path}`);
    }
    // Development serves the app's modules from source (Vite), production the built assets.
    expect((await request(development, "/app/root.tsx")).status).toBe(200);
    expect((await request(production, "/app/root.tsx")).status).toBe(404);
  });

  it("run the same middleware: body limits, page actions' content type, the request log", async () => {
    for (const server of [production, development]) {
      const tooLarge = await request(server, "/admin", {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: "x".repeat(2 * 1024 * 1024),
      });
      expect(tooLarge.status).toBe(413);
      const json = await request(server, "/admin", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: "{}",
      });
      expect(json.status).toBe(415);
      const page = await request(server, "/domain/velora");
      const requestId = page.headers.get("x-request-id")!;
      await waitFor(() => server.output().includes(requestId), 5_000, "the request log line");
      expect(
        JSON.parse(
          server
            .output()
            .split("\n")
            .find((line) => line.includes(requestId))!,
        ),
      ).toMatchObject({ msg: "request", requestId, path: "/domain/velora", status: 200 });
    }
  });

  it("stream the same live fee, and both hear a change", async () => {
    const streams = [production, development].map((server) => {
      const controller = new AbortController();
      const text = { value: "" };
      const done = fetch(new URL("/events/fee", server.url), { signal: controller.signal })
        .then(async (response) => {
          expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
          const reader = response.body!.getReader();
          for (;;) {
            const { value, done: ended } = await reader.read();
            if (ended) return;
            text.value += new TextDecoder().decode(value);
          }
        })
        .catch(() => {});
      return { controller, text, done };
    });
    const fees = (text: string) =>
      [...text.matchAll(/event: fee\ndata: \{"cents":(\d+)\}/g)].map((match) => Number(match[1]));
    await waitFor(() => streams.every(({ text }) => fees(text.value).length > 0), 10_000, "the fee on both streams");
    expect(fees(streams[1]!.text.value)).toEqual(fees(streams[0]!.text.value));
    const result = await runScript(production, "set-fee.ts", ["43.21"]);
    expect(result.code, result.output).toBe(0);
    await waitFor(
      () => streams.every(({ text }) => fees(text.value).includes(4321)),
      15_000,
      "the new fee on both streams",
    );
    for (const { controller } of streams) controller.abort();
    await Promise.all(streams.map(({ done }) => done));
  });

  it("in a browser, a development page hydrates under the CSP, hot reload socket included, and hears a fee change", async () => {
    const browser = await chromium.launch(chromiumLaunchOptions);
    try {
      const page = await browser.newPage({ baseURL: development.url });
      const violations: string[] = [];
      page.on("console", (message) => {
        if (/Content Security Policy|Refused to|WebSocket/i.test(message.text())) violations.push(message.text());
      });
      await page.addInitScript(() => {
        document.addEventListener("securitypolicyviolation", (event) =>
          console.error(`Refused to load: ${event.violatedDirective} ${event.blockedURI}`),
        );
      });
      const socket = page.waitForEvent("websocket");
      await page.goto("/");
      // Vite's client opens its hot reload socket on the same server (connect-src 'self').
      expect(new URL((await socket).url()).host).toBe(new URL(development.url).host);
      await page.evaluate(() => ((window as unknown as { kept: boolean }).kept = true));
      // Vite serves the modules one by one: a click before they have all run would be a full page load.
      await page.waitForLoadState("networkidle");
      await page
        .getByRole("link", { name: /velora/i })
        .first()
        .click();
      await page.getByRole("link", { name: /^Start Inquiry/ }).waitFor({ timeout: 30_000 });
      // A client-side navigation: the page hydrated (a full load would have a new window).
      expect(await page.evaluate(() => (window as unknown as { kept?: boolean }).kept)).toBe(true);
      const result = await runScript(production, "set-fee.ts", ["12.34"]);
      expect(result.code, result.output).toBe(0);
      await page.getByRole("link", { name: "Start Inquiry ($12.34)" }).waitFor({ timeout: 10_000 });
      expect(violations).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 120_000);
});
