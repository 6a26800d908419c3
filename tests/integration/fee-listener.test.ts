// Issue 22: other processes' fee changes reach this process's open pages, on SQLite (data_version) and on
// PostgreSQL (a LISTEN connection). On PostgreSQL the listening connection may die loudly (the server
// ends it: pg_terminate_backend) or silently (a half-open connection, played here by a TCP proxy that
// stops passing that connection's bytes without closing it): either way the process listens again by
// itself, hears the next change, and /healthz says when it does not listen.
import net from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeDataDir, startAppServer, type AppServer } from "../support/app-server";
import { request, setFeeCents } from "../support/http";
import { waitFor } from "../support/wait";
import { createTestDatabase } from "../support/postgres";

const onPostgres = process.env.TEST_DATABASE === "postgres";
const LISTENER_NAME = "domains-change-listener";
const CHECK_MS = 500;
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

type Check<T> = () => Promise<T | undefined | null | false>;
function until<T>(check: Check<T>, what: string, timeoutMs = 15_000): Promise<T> {
  return waitFor(check, timeoutMs, what);
}

interface Changes {
  via: string;
  listening: boolean;
  lostAt: string | null;
  reconnects: number;
}
async function changes(app: AppServer): Promise<Changes> {
  const reply = await request(app, "/healthz");
  expect(reply.status).toBe(200);
  return (JSON.parse(reply.body) as { changes: Changes }).changes;
}

/** A browser's /events/fee stream: every fee it was sent, in order. */
async function openFeeStream(app: AppServer) {
  const controller = new AbortController();
  const response = await fetch(new URL("/events/fee", app.url), { signal: controller.signal });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      text += decoder.decode(value, { stream: true });
    }
  })();
  const fees = () => [...text.matchAll(/event: fee\ndata: \{"cents":(\d+)\}/g)].map((match) => Number(match[1]));
  cleanups.push(() => controller.abort());
  await until(async () => fees().length > 0, "the stream's first fee");
  return { fees, received: (cents: number, what: string) => until(async () => fees().includes(cents), what) };
}

describe("another process's fee change reaches the open pages", () => {
  let app: AppServer;
  beforeAll(async () => {
    app = await startAppServer();
    cleanups.push(
      () => removeDataDir(app),
      () => app.stop(),
    );
  });

  it("and /healthz says how the process hears it", async () => {
    const stream = await openFeeStream(app);
    const via = onPostgres ? "listen" : "data_version";
    expect(await changes(app)).toEqual({ via, listening: true, lostAt: null, reconnects: 0 });
    setFeeCents(app.db(), 4_321);
    await stream.received(4_321, "the change made by another process");
  });
});

/** A TCP proxy to PostgreSQL that can make the connection that LISTENs go silent, both ways, without closing it. */
async function startSilencingProxy(target: { host: string; port: number }) {
  const listening = new Set<net.Socket>();
  const silenced = new WeakSet<net.Socket>();
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    sockets.add(client).add(upstream);
    const pass = (from: net.Socket, to: net.Socket) =>
      from.on("data", (chunk: Buffer) => {
        if (from === client && chunk.includes("LISTEN content_changed")) listening.add(client);
        if (!silenced.has(client)) to.write(chunk);
      });
    pass(client, upstream);
    pass(upstream, client);
    const close = () => {
      listening.delete(client);
      client.destroy();
      upstream.destroy();
    };
    client.on("error", close).on("close", close);
    upstream.on("error", close).on("close", close);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    /** From now on nothing passes on the connections that LISTENed; how many there were. */
    silenceListeners: () => {
      for (const socket of listening) silenced.add(socket);
      const count = listening.size;
      listening.clear();
      return count;
    },
    stop: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

describe.runIf(onPostgres)("PostgreSQL: the LISTEN connection is replaced when it dies", () => {
  let app: AppServer;
  let admin: pg.Client;
  let proxy: Awaited<ReturnType<typeof startSilencingProxy>>;
  let stream: Awaited<ReturnType<typeof openFeeStream>>;

  beforeAll(async () => {
    const databaseUrl = new URL(await createTestDatabase());
    admin = new pg.Client({ connectionString: databaseUrl.toString() });
    await admin.connect();
    cleanups.push(() => admin.end());
    proxy = await startSilencingProxy({ host: databaseUrl.hostname, port: Number(databaseUrl.port) });
    cleanups.push(() => proxy.stop());
    const throughProxy = new URL(databaseUrl);
    throughProxy.port = String(proxy.port);
    app = await startAppServer({
      database: "postgres",
      env: {
        DATABASE_URL: throughProxy.toString(),
        SESSION_SECRET: "listener-test-secret-0123456789abcdef",
        LISTEN_CHECK_INTERVAL_MS: String(CHECK_MS),
      },
    });
    cleanups.push(
      () => removeDataDir(app),
      () => app.stop(),
    );
    stream = await openFeeStream(app);
    await until(async () => (await changes(app)).listening, "the process listens");
  });

  // Not app.db(): its synchronous stand-in would block this thread, which runs the proxy it connects through.
  const setFee = (cents: number) =>
    admin.query(
      `INSERT INTO settings (key, value, created_at, updated_at) VALUES ('inquiry_fee', $1, $2, $2)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
      [(cents / 100).toFixed(2), new Date().toISOString()],
    );

  const listenerPids = async () => {
    const { rows } = await admin.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1",
      [LISTENER_NAME],
    );
    return rows.map((row) => row.pid);
  };

  it("ended by the server (pg_terminate_backend): /healthz says so; it listens again, hears changes", async () => {
    const [pid] = await listenerPids();
    expect(pid).toBeDefined();
    await admin.query("SELECT pg_terminate_backend($1)", [pid]);
    const down = await until(async () => {
      const now = await changes(app);
      return !now.listening && now;
    }, "/healthz reporting the listener down");
    expect(down.lostAt).toEqual(expect.any(String));
    const up = await until(async () => {
      const now = await changes(app);
      return now.listening && now;
    }, "the listener back");
    expect(up).toMatchObject({ lostAt: null, reconnects: 1 });
    expect(await listenerPids()).not.toContain(pid);
    expect((await setFee(5_555)).rowCount).toBe(1);
    await stream.received(5_555, "a change after the reconnect");
  });

  it("gone silent (half-open): found by the periodic check, replaced, and the next change is heard", async () => {
    expect((await changes(app)).listening).toBe(true);
    expect(proxy.silenceListeners()).toBe(1);
    // Written while the process cannot hear it: it arrives once the connection is replaced.
    expect((await setFee(6_666)).rowCount).toBe(1);
    await until(async () => !(await changes(app)).listening, "/healthz reporting the silent listener");
    await stream.received(6_666, "the change made while the listener was silent");
    await until(async () => (await changes(app)).listening, "the listener back");
    expect((await setFee(7_777)).rowCount).toBe(1);
    await stream.received(7_777, "a change after the reconnect");
    expect((await changes(app)).reconnects).toBe(2);
  });
});
