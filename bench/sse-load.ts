// Opens many live-fee event streams against one server process, changes the fee, and times the fan-out.
import net from "node:net";
import { residentBytes } from "./support";

export interface FeeChange {
  label: string;
  cents: number;
  run: () => Promise<void> | void;
}

export interface FanOut {
  label: string;
  reachedAll: boolean;
  reached: number;
  reachedWithin1s: number;
  slowestMs: number;
}

export interface SseResult {
  subscribers: number;
  connected: number;
  connectSeconds: number;
  bytesPerSubscriber: number | null;
  changes: FanOut[];
}

const BATCH = 200;

/**
 * `count` raw sockets each GET /events/fee and wait for the initial fee event. Then each change runs in
 * turn and the time until every socket has seen its new value is taken. Memory is the server's
 * resident size after minus before, divided by the subscribers.
 */
export async function sseLoad(options: {
  url: string;
  count: number;
  serverPid: number | undefined;
  changes: FeeChange[];
}): Promise<SseResult> {
  const target = new URL("/events/fee", options.url);
  const request = `GET ${target.pathname} HTTP/1.1\r\nHost: ${target.host}\r\nAccept: text/event-stream\r\n\r\n`;
  const sockets: net.Socket[] = [];
  let arrivals: number[] = [];
  let needle = "";
  let changeStartedAt = 0;
  let connected = 0;

  global.gc?.();
  await new Promise((resolve) => setTimeout(resolve, 500));
  const before = residentBytes(options.serverPid);
  const started = performance.now();

  const open = () =>
    new Promise<void>((resolve) => {
      const socket = net.connect({ host: target.hostname, port: Number(target.port) });
      let text = "";
      let ready = false;
      let seenNeedle = "";
      const timer = setTimeout(() => resolve(), 20_000);
      socket.setNoDelay(true);
      socket.on("connect", () => socket.write(request));
      socket.on("data", (chunk: Buffer) => {
        if (needle && seenNeedle === needle) return;
        text += chunk.toString("latin1");
        if (!ready && text.includes("event: fee")) {
          ready = true;
          connected += 1;
          clearTimeout(timer);
          resolve();
        }
        if (needle && text.includes(needle)) {
          seenNeedle = needle;
          arrivals.push(performance.now() - changeStartedAt);
          text = "";
        }
        if (text.length > 4096) text = text.slice(-256);
      });
      socket.on("error", () => {
        clearTimeout(timer);
        resolve();
      });
      sockets.push(socket);
    });

  for (let i = 0; i < options.count; i += BATCH) {
    await Promise.all(Array.from({ length: Math.min(BATCH, options.count - i) }, open));
  }
  const connectSeconds = (performance.now() - started) / 1000;
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const after = residentBytes(options.serverPid);

  const changes: FanOut[] = [];
  for (const change of options.changes) {
    arrivals = [];
    needle = `"cents":${change.cents}}`;
    changeStartedAt = performance.now();
    await change.run();
    const deadline = changeStartedAt + 10_000;
    while (arrivals.length < connected && performance.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 10));
    arrivals.sort((a, b) => a - b);
    changes.push({
      label: change.label,
      reachedAll: arrivals.length === connected && connected === options.count,
      reached: arrivals.length,
      reachedWithin1s: arrivals.filter((ms) => ms <= 1000).length,
      slowestMs: arrivals.at(-1) ?? NaN,
    });
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }

  for (const socket of sockets) socket.destroy();
  return {
    subscribers: options.count,
    connected,
    connectSeconds,
    bytesPerSubscriber: before !== null && after !== null && connected > 0 ? (after - before) / connected : null,
    changes,
  };
}
