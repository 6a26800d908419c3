// Opens many live-fee event streams against one server process, changes the fee, and times the fan-out.
import net from "node:net";
import { residentBytes } from "./support";

export interface SseResult {
  subscribers: number;
  connected: number;
  connectSeconds: number;
  bytesPerSubscriber: number | null;
  reachedAll: boolean;
  reached: number;
  reachedWithin1s: number;
  slowestMs: number;
}

const BATCH = 200;

/**
 * `count` raw sockets each GET /events/fee and wait for the initial fee event. Then `changeFee(cents)`
 * runs and the time until every socket has seen the new value is taken. Memory is the server's
 * resident size after minus before, divided by the subscribers.
 */
export async function sseLoad(options: {
  url: string;
  count: number;
  serverPid: number | undefined;
  newFeeCents: number;
  changeFee: (cents: number) => Promise<void> | void;
}): Promise<SseResult> {
  const target = new URL("/events/fee", options.url);
  const request = `GET ${target.pathname} HTTP/1.1\r\nHost: ${target.host}\r\nAccept: text/event-stream\r\n\r\n`;
  const needle = `"cents":${options.newFeeCents}}`;
  const sockets: net.Socket[] = [];
  const arrivals: number[] = [];
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
      let seenNew = false;
      const timer = setTimeout(() => resolve(), 20_000);
      socket.setNoDelay(true);
      socket.on("connect", () => socket.write(request));
      socket.on("data", (chunk: Buffer) => {
        if (seenNew) return;
        text += chunk.toString("latin1");
        if (!ready && text.includes("event: fee")) {
          ready = true;
          connected += 1;
          clearTimeout(timer);
          resolve();
        }
        if (changeStartedAt && text.includes(needle)) {
          seenNew = true;
          arrivals.push(performance.now() - changeStartedAt);
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

  changeStartedAt = performance.now();
  await options.changeFee(options.newFeeCents);
  const deadline = changeStartedAt + 10_000;
  while (arrivals.length < connected && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));

  for (const socket of sockets) socket.destroy();
  arrivals.sort((a, b) => a - b);
  return {
    subscribers: options.count,
    connected,
    connectSeconds,
    bytesPerSubscriber: before !== null && after !== null && connected > 0 ? (after - before) / connected : null,
    reachedAll: arrivals.length === connected && connected === options.count,
    reached: arrivals.length,
    reachedWithin1s: arrivals.filter((ms) => ms <= 1000).length,
    slowestMs: arrivals.at(-1) ?? NaN,
  };
}
