import type { IncomingMessage, ServerResponse } from "node:http";
import { env } from "../runtime/env.server";
import { FEE_STREAM_HEADERS, feeMessage, SSE_HEARTBEAT, SSE_PREAMBLE, subscribeToFee } from "../catalog/events.server";
import { getInquiryFeeCents } from "../catalog/settings.server";
import { log } from "../runtime/log.server";
import type { RequestValues } from "./request-context.server";

/*
 * GET /events/fee on the raw Node response, answered before express and React Router. A fee change
 * is one Buffer written to every open response: no web stream, no per-subscriber encoding, no
 * compression. Through the framework's ReadableStream each subscriber cost about 30 KB and 10,000 of
 * them took 1.4-2 s to hear a change. One shared timer sends the heartbeat to every stream.
 */

type Next = () => void;

const open = new Set<ServerResponse>();
// Open streams per client address: one host must not hold every file descriptor the process has.
const openByAddress = new Map<string, number>();
let refused = 0;
const REFUSED_RETRY_AFTER_SECONDS = 60;

/** For /healthz: open streams, how many addresses hold them, and how many were refused. */
export function feeStreamStats() {
  return {
    open: open.size,
    addresses: openByAddress.size,
    refused,
    maxPerAddress: env.FEE_STREAM_MAX_PER_ADDRESS,
    maxTotal: env.FEE_STREAM_MAX_TOTAL,
  };
}

function refuseStream(res: ServerResponse): void {
  refused += 1;
  res.writeHead(503, {
    "Content-Type": "text/plain; charset=utf-8",
    "Cache-Control": "no-store",
    "Retry-After": String(REFUSED_RETRY_AFTER_SECONDS),
    Connection: "close",
  });
  res.end("Too many live-fee connections; the page works without live updates.\n");
}
let heartbeat: NodeJS.Timeout | undefined;

function startHeartbeat(): void {
  if (heartbeat) return;
  heartbeat = setInterval(() => {
    for (const res of open) res.write(SSE_HEARTBEAT);
  }, env.SSE_HEARTBEAT_MS);
  heartbeat.unref();
}

function stopHeartbeatWhenIdle(): void {
  if (open.size > 0 || !heartbeat) return;
  clearInterval(heartbeat);
  heartbeat = undefined;
}

function isFeeStreamRequest(req: IncomingMessage): boolean {
  if (req.method !== "GET") return false;
  const url = req.url ?? "";
  return url === "/events/fee" || url.startsWith("/events/fee?");
}

/** The handler for server.ts: answers the fee stream, passes every other request on. */
export function createFeeStream() {
  return (req: IncomingMessage, res: ServerResponse, values: RequestValues, next: Next): void => {
    if (!isFeeStreamRequest(req)) return next();
    const address = values.clientAddress;
    const fromAddress = openByAddress.get(address) ?? 0;
    if (open.size >= env.FEE_STREAM_MAX_TOTAL || fromAddress >= env.FEE_STREAM_MAX_PER_ADDRESS)
      return refuseStream(res);
    openByAddress.set(address, fromAddress + 1);
    res.writeHead(200, FEE_STREAM_HEADERS);
    res.write(SSE_PREAMBLE);
    // Subscribed before the fee is read, so no change is missed; a change heard before the read
    // answers is newer than (or as new as) what the read will say, so the read is then not sent.
    let heardChange = false;
    const unsubscribe = subscribeToFee(
      (event) => {
        heardChange = true;
        res.write(feeMessage(event.cents));
      },
      () => res.end(),
    );
    getInquiryFeeCents().then(
      (cents) => {
        if (!heardChange && !res.writableEnded && !res.destroyed) res.write(feeMessage(cents));
      },
      // The database cannot say now: the stream goes on and brings the next change.
      (error) => log.error({ error: (error as Error).message }, "fee stream: fee not read"),
    );
    open.add(res);
    startHeartbeat();
    res.once("close", () => {
      unsubscribe();
      open.delete(res);
      const left = (openByAddress.get(address) ?? 1) - 1;
      if (left > 0) openByAddress.set(address, left);
      else openByAddress.delete(address);
      stopHeartbeatWhenIdle();
    });
  };
}
