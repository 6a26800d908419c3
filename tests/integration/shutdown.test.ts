import { existsSync } from "node:fs";
import http from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import { removeDataDir, startAppServer, type AppServer } from "../support/app-server";
import { waitFor } from "../support/wait";

const servers: AppServer[] = [];
afterAll(() => servers.forEach(removeDataDir));

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  await waitFor(check, timeoutMs);
}

/** Reads an event stream until it ends; resolves with everything it carried. */
async function readToEnd(response: Response, onText: (text: string) => void): Promise<string> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text;
    text += decoder.decode(value);
    onText(text);
  }
}

describe("graceful shutdown", () => {
  it("on SIGTERM finishes an in-flight request, ends open event streams, closes the database and exits 0", async () => {
    const server = await startAppServer();
    servers.push(server);
    const { hostname, port } = new URL(server.url);

    let streamText = "";
    const stream = await fetch(new URL("/events/fee", server.url));
    const streamEnded = readToEnd(stream, (text) => (streamText = text));
    await until(() => streamText.includes("event: fee"));

    // A slow upload: the request is in flight while the signal arrives.
    const slowRequest = http.request({
      host: hostname,
      port,
      method: "POST",
      path: "/contact/velora",
      // Expect: 100-continue: the server's "100 Continue" says it has read the headers and the request is its.
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        "Transfer-Encoding": "chunked",
        Expect: "100-continue",
      },
    });
    const inFlight = new Promise((resolve) => slowRequest.once("continue", resolve));
    const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
      slowRequest.on("response", (response) => {
        let body = "";
        response.on("data", (chunk) => (body += chunk));
        response.on("end", () => resolve({ status: response.statusCode!, body }));
      });
      slowRequest.on("error", reject);
    });
    slowRequest.flushHeaders();
    await inFlight;
    await new Promise((resolve) => slowRequest.write("message=first-half", resolve));

    const exitCode = server.stop("SIGTERM");
    await until(() => server.output().includes('"msg":"shutting down"'));

    // The open stream is ended by the server, not cut by the process dying.
    await expect(streamEnded).resolves.toContain("event: fee");
    // A health check now fails: either the connection is refused or, on a kept-alive one, 503 "shutting down".
    const health = await fetch(new URL("/healthz", server.url)).then(
      async (r) => ({ status: r.status, body: await r.json() }),
      () => ({ status: 0, body: null }),
    );
    if (health.status !== 0) expect(health).toMatchObject({ status: 503, body: { ok: false, shuttingDown: true } });
    // ...but the request that was already under way gets its full answer: the server waits for it.
    expect(server.process.exitCode).toBeNull();
    slowRequest.end("&rest=second-half");
    const response = await answered;
    expect(response.status).toBe(405); // /contact has no action: a complete, ordinary answer
    expect(response.body).toContain("</html>");

    expect(await exitCode).toBe(0);
    expect(server.output()).toContain('"msg":"stopped"');
    // The database was closed cleanly: its write-ahead log was checkpointed and removed.
    expect(existsSync(`${server.dbPath}-wal`)).toBe(false);
  });

  it("on SIGINT (Ctrl+C) stops the same way and exits 0", async () => {
    const server = await startAppServer();
    servers.push(server);
    expect((await fetch(new URL("/healthz", server.url))).status).toBe(200);
    expect(await server.stop("SIGINT")).toBe(0);
    expect(server.output()).toContain('"signal":"SIGINT"');
    expect(existsSync(`${server.dbPath}-wal`)).toBe(false);
  });
});
