import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeDataDir, startAppServer, type AppServer } from "../../support/app-server";
import { insertDomain, uniqueDomainName } from "../../support/data";
import { allCases } from "./all-cases";
import type { HostileCase, StatusClass } from "./cases";

const ADMIN = { email: "hostile-admin@example.test", password: "hostile-admin-password" };
let app: AppServer;
let session = "";
let domainId = 0;

beforeAll(async () => {
  // Every case comes from one address: the per-address search limit is not what is tested here.
  app = await startAppServer({
    env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, SEARCHES_PER_MINUTE: "1000000" },
  });
  domainId = insertDomain(app.db(), { name: uniqueDomainName("hostile-admin"), priceCents: 50_000 });
  const login = await fetch(new URL("/admin", app.url), {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: new URL(app.url).origin },
    body: new URLSearchParams({ intent: "login", email: ADMIN.email, password: ADMIN.password }),
  });
  session = login.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
  expect(login.status, await login.text()).toBe(303);
  expect(session).not.toBe("");
});
afterAll(async () => {
  await app.stop();
  removeDataDir(app);
});

interface Answer {
  status: number;
  body: string;
}

function send(testCase: HostileCase): Promise<Answer> {
  const { hostname, port, origin } = new URL(app.url);
  const fill = (text: string) =>
    text.replace("{origin}", origin).replace("{session}", session).replace("{id}", String(domainId));
  const headers = Object.fromEntries(
    Object.entries(testCase.headers ?? {}).map(([name, value]) => [name, fill(value)]),
  );
  const body = typeof testCase.body === "string" ? testCase.body.replace("%7Bid%7D", String(domainId)) : testCase.body;
  if (testCase.raw) {
    return new Promise((resolve, reject) => {
      // Written, not ended: a half-closed socket would let the server drop the answer.
      const socket = net.connect(Number(port), hostname, () => socket.write(testCase.raw!));
      socket.setTimeout(5_000, () => socket.end());
      let text = "";
      socket.on("data", (chunk: Buffer) => (text += chunk.toString("latin1")));
      socket.on("error", reject);
      socket.on("close", () => {
        const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
        resolve({ status, body: text.slice(text.indexOf("\r\n\r\n") + 4) });
      });
    });
  }
  return new Promise((resolve, reject) => {
    const request = http.request({
      host: hostname,
      port,
      method: testCase.method ?? "GET",
      path: testCase.path,
      headers: { Connection: "close", ...headers },
      insecureHTTPParser: false,
    });
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      // An event stream never ends by itself: its first bytes are enough.
      const isStream = String(response.headers["content-type"]).startsWith("text/event-stream");
      response.on("data", (chunk: Buffer) => {
        chunks.push(chunk);
        if (isStream) response.destroy();
      });
      const done = () => resolve({ status: response.statusCode!, body: Buffer.concat(chunks).toString("utf8") });
      response.on("end", done);
      response.on("close", done);
    });
    request.on("error", (error) => {
      // The server may refuse (413) and close before a big body is fully sent; the answer is read above.
      // Should none come, the case fails at once (status 0) instead of waiting for the test's timeout.
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EPIPE" || code === "ECONNRESET")
        setTimeout(() => resolve({ status: 0, body: `no answer: ${code}` }), 2_000).unref();
      else reject(error);
    });
    request.end(body);
  });
}

function classOf(status: number): StatusClass {
  return `${String(status)[0]}xx` as StatusClass;
}

describe("hostile input: every case gets a clear 4xx or a handled view, never a 500", () => {
  const results: Array<{ testCase: HostileCase; status: number }> = [];

  it.each(allCases.map((testCase) => [testCase.name, testCase] as const))("%s", async (_name, testCase) => {
    const answer = await send(testCase);
    results.push({ testCase, status: answer.status });
    expect(answer.status, `${testCase.method ?? "GET"} ${testCase.path}`).toBeGreaterThanOrEqual(200);
    expect(answer.status).toBeLessThan(500);
    if (testCase.expect !== "handled") expect(classOf(answer.status)).toBe(testCase.expect);
    if (testCase.status) expect(answer.status).toBe(testCase.status);
    for (const text of testCase.mustNotContain ?? []) expect(answer.body).not.toContain(text);
  });

  it("is still healthy afterwards, and says how many cases it tried", async () => {
    const health = await fetch(new URL("/healthz", app.url));
    expect(health.status).toBe(200);
    // The admin session survived every case: nothing signed it out or broke it.
    const panel = await fetch(new URL("/admin", app.url), { headers: { Cookie: session } });
    expect(await panel.text()).toContain("Sign Out");
    const byClass = results.reduce<Record<string, number>>((counts, { status }) => {
      counts[classOf(status)] = (counts[classOf(status)] ?? 0) + 1;
      return counts;
    }, {});
    console.log(
      `hostile input: ${results.length} of ${allCases.length} cases tried, answers by class ${JSON.stringify(byClass)}, no 5xx`,
    );
    expect(results.length).toBe(allCases.length);
    expect(app.output()).not.toMatch(/unhandled error/);
  });
});
