import http from "node:http";
import net from "node:net";
import { readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeDataDir, startAppServer, type AppServer } from "../support/app-server";
import { waitFor } from "../support/http";

let app: AppServer;
let proxied: AppServer;

beforeAll(async () => {
  [app, proxied] = await Promise.all([
    startAppServer({
      env: { LOG_REQUESTS: "true", SSE_HEARTBEAT_MS: "150", MAX_BODY_BYTES: "65536", MAX_UPLOAD_BYTES: "262144" },
    }),
    startAppServer({ env: { TRUST_PROXY: "true" } }),
  ]);
});
afterAll(async () => {
  for (const server of [app, proxied]) {
    await server.stop();
    removeDataDir(server);
  }
});

async function get(urlPath: string, init?: RequestInit, server = app) {
  const response = await fetch(new URL(urlPath, server.url), { redirect: "manual", ...init });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

/** A raw request, so a test controls Content-Length and chunking exactly. */
function rawRequest(options: {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  chunks?: Buffer[];
}) {
  const { hostname, port } = new URL(app.url);
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const request = http.request({
      host: hostname,
      port,
      method: options.method,
      path: options.path,
      headers: options.headers,
    });
    request.on("response", (response) => {
      let body = "";
      response.on("data", (chunk) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body }));
    });
    // The server may answer and close before the whole body is sent: that answer is what counts.
    request.on("error", (error) => reject(error));
    for (const chunk of options.chunks ?? []) request.write(chunk);
    request.end(options.body);
  });
}

function cspOf(headers: Headers): Map<string, string> {
  const policy = headers.get("content-security-policy") ?? "";
  return new Map(
    policy.split(";").map((part) => {
      const [name, ...values] = part.trim().split(/\s+/);
      return [name!, values.join(" ")];
    }),
  );
}

describe("security headers", () => {
  const assetFile = readdirSync(path.resolve(import.meta.dirname, "../../build/client/assets")).find((f) =>
    f.endsWith(".js"),
  );

  it.each([
    "/",
    "/domain/velora",
    "/contact/velora",
    "/domain/not-listed-anywhere",
    "/no/such/page",
    "/healthz",
    `/assets/${assetFile}`,
  ])("%s carries CSP, nosniff, referrer policy, frame denial and a request id", async (urlPath) => {
    const { headers } = await get(urlPath);
    const csp = cspOf(headers);
    expect(csp.get("default-src")).toBe("'self'");
    expect(csp.get("frame-ancestors")).toBe("'none'");
    expect(csp.get("object-src")).toBe("'none'");
    expect(csp.get("script-src")).toMatch(/^'self' 'nonce-[A-Za-z0-9+/=]{20,}'$/);
    expect(headers.get("x-content-type-options")).toBe("nosniff");
    expect(headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(headers.get("x-frame-options")).toBe("DENY");
    expect(headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(headers.get("strict-transport-security")).toBeNull();
  });

  it("gives every inline script the nonce of its header, a new one per render", async () => {
    const first = await get("/domain/velora");
    // A page served again from the page cache keeps the nonce in its body and header (they must match);
    // any new render (here: a request with a cookie, which the cache does not answer) gets a new one.
    const second = await get("/domain/velora", { headers: { Cookie: "theme=dark" } });
    const nonce = /'nonce-([^']+)'/.exec(first.headers.get("content-security-policy")!)![1]!;
    // Data blocks (JSON-LD) are never executed, so the policy does not apply to them.
    const scripts = [...first.body.matchAll(/<script\b[^>]*>/g)]
      .map((match) => match[0])
      .filter((tag) => !tag.includes("application/ld+json"));
    expect(scripts.length).toBeGreaterThan(1);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    expect(second.headers.get("content-security-policy")).not.toContain(nonce);
  });

  it("allows Stripe's hosts on payment pages only", async () => {
    const payment = cspOf((await get("/payment/velora")).headers);
    expect(payment.get("script-src")).toContain("https://js.stripe.com");
    expect(payment.get("frame-src")).toContain("https://js.stripe.com");
    expect(payment.get("connect-src")).toContain("https://api.stripe.com");
    expect(payment.get("form-action")).toContain("https://checkout.stripe.com");
    for (const urlPath of ["/", "/domain/velora", "/contact/velora", "/paymentx"]) {
      const csp = (await get(urlPath)).headers.get("content-security-policy")!;
      expect(csp, urlPath).not.toContain("stripe");
      expect(cspOf((await get(urlPath)).headers).get("frame-src"), urlPath).toBe("'none'");
    }
  });

  it.each([
    "/admin",
    "/admin/",
    "/admin/domains",
    "/ADMIN",
    "/%61dmin",
    "/admin.data",
    "/payment/velora",
    "/payment/velora.data",
    "/payment",
    "/test-checkout/abc",
  ])("%s is never stored by a cache (Cache-Control: no-store)", async (urlPath) => {
    expect((await get(urlPath)).headers.get("cache-control")).toBe("no-store");
  });

  it("gives every response its own X-Request-Id, pages answered from the page cache too", async () => {
    const ids = new Set<string>();
    let cacheHits = 0;
    for (let i = 0; i < 3; i++) {
      const { headers } = await get("/contact/velora");
      expect(headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
      ids.add(headers.get("x-request-id")!);
      if (headers.get("x-cache") === "HIT") cacheHits += 1;
      expect(headers.get("content-security-policy")).toContain("'nonce-");
    }
    expect(ids.size).toBe(3);
    expect(cacheHits).toBeGreaterThan(0);
  });

  it("lets public pages be cached normally", async () => {
    for (const urlPath of ["/", "/domain/velora", "/administrator"]) {
      expect((await get(urlPath)).headers.get("cache-control") ?? "", urlPath).not.toContain("no-store");
    }
  });

  it("sends HSTS only for HTTPS: behind a trusted proxy that says so", async () => {
    expect(
      (await get("/", { headers: { "X-Forwarded-Proto": "https" } })).headers.get("strict-transport-security"),
    ).toBeNull();
    const viaHttps = await get("/", { headers: { "X-Forwarded-Proto": "https" } }, proxied);
    expect(viaHttps.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    const viaHttp = await get("/", { headers: { "X-Forwarded-Proto": "http" } }, proxied);
    expect(viaHttp.headers.get("strict-transport-security")).toBeNull();
  });
});

describe("page meta", () => {
  it.each([
    ["/", /Premium Domain Acquisitions/],
    ["/domain/velora", /^velora\.com is for sale/],
    ["/contact/velora", /Payment Required/],
    ["/payment/velora", /velora\.com/],
    ["/admin", /Admin Login/],
    ["/domain/not-listed-anywhere", /Domain not found/],
    ["/payment/not-listed-anywhere", /Domain not found/],
    ["/no/such/page", /^Page not found \| DomainVault$/],
  ])("%s has a real <title> and a description", async (urlPath, title) => {
    const { body } = await get(urlPath);
    const titles = [...body.matchAll(/<title>([^<]*)<\/title>/g)].map((match) => match[1]!);
    expect(titles).toHaveLength(1);
    expect(titles[0]).toMatch(title);
    const description = /<meta name="description" content="([^"]+)"/.exec(body)?.[1] ?? "";
    expect(description.length, "description").toBeGreaterThan(10);
  });

  it("says the domain is for sale in the description of its page", async () => {
    const { body } = await get("/domain/velora");
    expect(/<meta name="description" content="([^"]+)"/.exec(body)?.[1]).toMatch(/^velora\.com is for sale/);
  });
});

describe("request bodies", () => {
  it("refuses a declared body over MAX_BODY_BYTES with 413 before reading it", async () => {
    const response = await rawRequest({
      method: "POST",
      path: "/contact/velora",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": String(10 * 1024 * 1024) },
      body: Buffer.alloc(1024, "a"), // far less than declared: the answer comes without waiting for the rest
    });
    expect(response.status).toBe(413);
    expect(response.body).toContain("Request body too large");
  });

  it("a client still sending a body that is refused reads the 413, not a reset connection", async () => {
    // A busy client: it writes the whole body (8x the limit) before it reads anything. Closing a socket
    // with unread data makes the kernel reset it, and a reset throws away the answer the client has not
    // read yet; the server keeps reading (and discarding) for a while before it closes.
    const { hostname, port } = new URL(app.url);
    const body = Buffer.alloc(512 * 1024, "a");
    const socket = net.connect(Number(port), hostname);
    await new Promise((resolve) => socket.once("connect", resolve));
    socket.pause();
    let failed: Error | null = null;
    socket.on("error", (error) => (failed = error));
    const closed = new Promise((resolve) => socket.once("close", resolve));
    socket.write(
      `POST /contact/velora HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
    );
    // Each piece handed to the kernel before the next (the write's callback), as a busy client writes.
    for (let offset = 0; offset < body.length && !failed; offset += 32 * 1024) {
      await new Promise<void>((resolve) => socket.write(body.subarray(offset, offset + 32 * 1024), () => resolve()));
    }
    let text = "";
    socket.on("data", (chunk: Buffer) => (text += chunk.toString("latin1")));
    socket.resume();
    await closed;
    expect(failed).toBeNull();
    expect(text).toMatch(/^HTTP\/1\.1 413 /);
    expect(text).toContain("Request body too large");
  });

  it("refuses a chunked body as soon as it grows past the limit", async () => {
    const chunk = Buffer.alloc(16 * 1024, "a");
    const response = await rawRequest({
      method: "POST",
      path: "/contact/velora",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Transfer-Encoding": "chunked" },
      chunks: Array.from({ length: 8 }, () => chunk),
    });
    expect(response.status).toBe(413);
  });

  it("reads a small chunked body normally; multipart outside the portfolio import has the body limit", async () => {
    const small = await rawRequest({
      method: "POST",
      path: "/contact/velora",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Transfer-Encoding": "chunked" },
      chunks: [Buffer.from("a=1&"), Buffer.from("b=2")],
    });
    expect(small.status).toBe(405); // reached the app: /contact has no action
    const boundary = "----hardening";
    const multipart = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.csv"\r\n\r\n`),
      Buffer.alloc(100 * 1024, "a"),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const upload = await rawRequest({
      method: "POST",
      path: "/contact/velora",
      headers: {
        "Content-Type": `multipart/form-data; boundary=${boundary}`,
        "Content-Length": String(multipart.length),
      },
      body: multipart,
    });
    // 100 KB: under MAX_UPLOAD_BYTES but over MAX_BODY_BYTES, and only a signed-in admin's import may
    // be larger (tests/integration/uploads.test.ts).
    expect(upload.status).toBe(413);
    expect(upload.body).toContain("limit 65536 bytes");
  });

  it("answers a malformed Content-Length with 400", async () => {
    const { hostname, port } = new URL(app.url);
    const status = await new Promise<string>((resolve) => {
      const socket = net.connect(Number(port), hostname, () => {
        socket.end("POST /contact/velora HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n");
      });
      let text = "";
      socket.on("data", (chunk: Buffer) => (text += chunk));
      socket.on("close", () => resolve(text.split("\r\n")[0] ?? ""));
    });
    expect(status).toMatch(/^HTTP\/1\.1 400/);
  });
});

describe("request logs", () => {
  it("writes one JSON line per request with id, method, path, status and duration, and no secrets", async () => {
    const response = await fetch(
      new URL("/domain/velora?token=sk_live_secret123&q=velora&email=buyer%40example.test", app.url),
      {
        headers: { Cookie: "__session=cookie-secret-456", Authorization: "Bearer auth-secret-789" },
      },
    );
    await response.text();
    const posted = await fetch(new URL("/contact/velora", app.url), {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "password=hunter2-secret&card=4242424242424242",
    });
    await posted.text();
    const requestId = response.headers.get("x-request-id")!;
    const postedId = posted.headers.get("x-request-id")!;
    // Request lines are written in batches, and within a second (log.server.ts);
    // the two requests' lines may land in different batches.
    await waitFor(
      () => app.output().includes(requestId) && app.output().includes(postedId),
      3_000,
      "both request log lines",
    );
    const lines = app
      .output()
      .split("\n")
      .filter((line) => line.includes(requestId));
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0]!);
    expect(entry).toMatchObject({ msg: "request", requestId, method: "GET", status: 200 });
    expect(entry.path).toBe("/domain/velora?token=%5Bredacted%5D&q=velora&email=%5Bredacted%5D");
    expect(typeof entry.durationMs).toBe("number");
    expect(Date.parse(entry.time)).not.toBeNaN();
    const postLine = app
      .output()
      .split("\n")
      .find((line) => line.includes(postedId));
    expect(JSON.parse(postLine!)).toMatchObject({ method: "POST", path: "/contact/velora", status: 405 });
    for (const secret of [
      "sk_live_secret123",
      "cookie-secret-456",
      "auth-secret-789",
      "hunter2",
      "4242424242424242",
      "buyer@example.test",
    ]) {
      expect(app.output()).not.toContain(secret);
    }
  });

  it("writes nothing per request with LOG_REQUESTS=false", async () => {
    const response = await get("/", undefined, proxied);
    expect(response.status).toBe(200);
    expect(proxied.output()).not.toContain('"msg":"request"');
  });
});

describe("/healthz and the live fee stream", () => {
  it("reports the database, that the process is not shutting down, and the number of open fee streams", async () => {
    const health = await get("/healthz");
    expect(health.status).toBe(200);
    expect(health.headers.get("cache-control")).toBe("no-store");
    expect(JSON.parse(health.body)).toEqual({
      ok: true,
      database: true,
      shuttingDown: false,
      changes: expect.objectContaining({ listening: true }),
      contentVersion: expect.objectContaining({ keptIn: "memory", staleAtMostMs: 750 }),
      statements: expect.any(Number),
      feeSubscribers: expect.any(Number),
      feeStreams: expect.objectContaining({ maxPerAddress: 100, maxTotal: 10_000 }),
      signIns: expect.objectContaining({ inFlight: expect.any(Number) }),
    });
  });

  it("sends retry, the fee, heartbeats, and forgets a subscriber that disconnects", async () => {
    const subscribers = async () => JSON.parse((await get("/healthz")).body).feeSubscribers as number;
    const before = await subscribers();
    const controller = new AbortController();
    const response = await fetch(new URL("/events/fee", app.url), { signal: controller.signal });
    const reader = response.body!.getReader();
    let text = "";
    const started = Date.now();
    while ((text.match(/: heartbeat/g) ?? []).length < 2) text += new TextDecoder().decode((await reader.read()).value);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(text).toMatch(/^retry: \d+\n\n/);
    expect(text).toMatch(/event: fee\ndata: \{"cents":\d+\}\n\n/);
    expect(await subscribers()).toBe(before + 1);
    controller.abort();
    await waitFor(async () => (await subscribers()) === before, 5_000, "the stream's subscriber gone");
    expect(await subscribers()).toBe(before);
  });
});
