// What server.ts works out once per request, before anything answers it (app/server/http/proxy.server.ts):
// the client's address through the proxies TRUST_PROXY trusts, and the scheme the browser used. Read
// here by the parts that answer raw Node requests before express (the live-fee stream, the sign-in
// guard, the page cache).
import type { IncomingMessage } from "node:http";

/** `clientIp` for a raw Node request: the address server.ts put in x-real-client-ip. */
export function clientIpOfRaw(req: IncomingMessage): string {
  const address = req.headers["x-real-client-ip"];
  return typeof address === "string" ? address : (req.socket.remoteAddress ?? "unknown");
}

/** "https" or "http": the scheme the browser used (through a TLS proxy: https); the page cache keys on it. */
export function publicProtocolOf(req: IncomingMessage): string {
  return (req as IncomingMessage & { publicProtocol?: string }).publicProtocol ?? "http";
}
