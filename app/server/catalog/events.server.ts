// The in-process bus behind the live fee stream, and the stream's wire format. Every fee write publishes here.

export interface FeeEvent {
  cents: number;
}

type Listener = (event: FeeEvent) => void;

const listeners = new Set<Listener>();
const closers = new Set<() => void>();

/** How long a browser waits before reconnecting a dropped stream. */
export const SSE_RETRY_MS = 3_000;
export const SSE_PREAMBLE = Buffer.from(`retry: ${SSE_RETRY_MS}\n\n`);
export const SSE_HEARTBEAT = Buffer.from(": heartbeat\n\n");
export const FEE_STREAM_HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-store",
  Connection: "keep-alive",
  "X-Accel-Buffering": "no",
};

let lastMessage: { cents: number; bytes: Buffer } | undefined;

/** Encoded once per fee, not once per subscriber: a change fans out to thousands of streams. */
export function feeMessage(cents: number): Buffer {
  if (lastMessage?.cents !== cents)
    lastMessage = { cents, bytes: Buffer.from(`event: fee\ndata: ${JSON.stringify({ cents })}\n\n`) };
  return lastMessage.bytes;
}

export function subscribeToFee(listener: Listener, close: () => void): () => void {
  listeners.add(listener);
  closers.add(close);
  return () => {
    listeners.delete(listener);
    closers.delete(close);
  };
}

export function publishFee(event: FeeEvent): void {
  for (const listener of listeners) listener(event);
}

export function subscriberCount(): number {
  return listeners.size;
}

/** On shutdown: end every open stream so the server can close. */
export function closeAllStreams(): void {
  for (const close of [...closers]) close();
  listeners.clear();
  closers.clear();
}
