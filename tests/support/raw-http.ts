import net from "node:net";
import { settleServerAt } from "./app-server";
import { requestOnNewConnection, type RawResponse } from "./new-connection";

export type { RawResponse };

/**
 * A request with exactly the Host header given (fetch would not send a malformed one), to an app
 * server's address, once the server has heard of the test's writes.
 */
export async function requestWithHost(
  baseUrl: string,
  path: string,
  host: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<RawResponse> {
  await settleServerAt(baseUrl);
  return requestOnNewConnection(baseUrl, path, host, {
    ...options,
    headers: { "User-Agent": BROWSER_USER_AGENT, ...options.headers },
  });
}

export const BROWSER_USER_AGENT = "Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0";
export const BOT_USER_AGENT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

/**
 * A POST over a raw socket whose body is sent a byte at a time, one every `everyMs` (a slow or
 * malicious client), starting with `head` bytes at once. Resolves with the raw answer when the server
 * answers or closes; `stop()` ends the trickle and closes the socket.
 */
export function tricklePost(
  baseUrl: string,
  path: string,
  options: { body: string; headers?: Record<string, string>; everyMs?: number; head?: number },
): {
  answer: Promise<{ raw: string; status: number; afterMs: number }>;
  /** Resolves when the server has read the headers and taken the request (its "100 Continue"). */
  taken: Promise<void>;
  stop: () => void;
} {
  const target = new URL(baseUrl);
  const socket = net.connect(Number(target.port), target.hostname);
  const started = performance.now();
  const headers = {
    Host: target.host,
    "Content-Type": "application/x-www-form-urlencoded",
    "Content-Length": String(Buffer.byteLength(options.body)),
    // The server answers "100 Continue" as it takes the request: the test knows when it is in flight.
    Expect: "100-continue",
    ...options.headers,
  };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  let sent = options.head ?? 0;
  let timer: NodeJS.Timeout | undefined;
  socket.on("connect", () => {
    socket.write(`POST ${path} HTTP/1.1\r\n${lines.join("\r\n")}\r\n\r\n${options.body.slice(0, sent)}`);
    timer = setInterval(() => {
      if (sent >= options.body.length - 1) return; // never the last byte: the body stays incomplete
      socket.write(options.body[sent]!);
      sent += 1;
    }, options.everyMs ?? 500);
  });
  const stop = () => {
    clearInterval(timer);
    socket.destroy();
  };
  let onTaken!: () => void;
  const taken = new Promise<void>((resolve) => (onTaken = resolve));
  const answer = new Promise<{ raw: string; status: number; afterMs: number }>((resolve) => {
    let raw = "";
    let afterMs = 0;
    socket.on("data", (chunk) => {
      raw += chunk.toString("utf8");
      const interim = /^HTTP\/1\.1 100 [^\r\n]*\r\n\r\n/.exec(raw);
      if (interim) {
        raw = raw.slice(interim[0].length);
        onTaken();
      }
      if (raw && !afterMs) afterMs = performance.now() - started;
    });
    const done = () => {
      clearInterval(timer);
      resolve({ raw, status: Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1] ?? 0), afterMs });
    };
    socket.on("close", done);
    socket.on("error", () => {});
  });
  return { answer, taken, stop };
}
