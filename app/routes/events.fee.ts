import { env } from "../server/env.server";
import { subscribeToFee } from "../server/events.server";
import { getInquiryFeeCents } from "../server/settings.server";

const RETRY_MS = 3_000;
const encoder = new TextEncoder();

let lastMessage: { cents: number; bytes: Uint8Array } | undefined;

/** Encoded once per fee, not once per subscriber: a change fans out to thousands of streams. */
function feeMessage(cents: number): Uint8Array {
  if (lastMessage?.cents !== cents) lastMessage = { cents, bytes: encoder.encode(`event: fee\ndata: ${JSON.stringify({ cents })}\n\n`) };
  return lastMessage.bytes;
}

/** Server-Sent Events: the current fee on connect, then every change, with a heartbeat comment. */
export function loader({ request }: { request: Request }) {
  let cleanup = () => {};
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const close = () => {
        cleanup();
        try {
          controller.close();
        } catch {
          // already closed by the client
        }
      };
      // A write to a stream the client has left must end the subscription, never throw from a timer.
      const send = (chunk: Uint8Array) => {
        try {
          controller.enqueue(chunk);
        } catch {
          cleanup();
        }
      };
      const unsubscribe = subscribeToFee((event) => send(feeMessage(event.cents)), close);
      const heartbeat = setInterval(() => send(encoder.encode(": heartbeat\n\n")), env.SSE_HEARTBEAT_MS);
      cleanup = () => {
        clearInterval(heartbeat);
        unsubscribe();
      };
      request.signal.addEventListener("abort", close, { once: true });
      send(encoder.encode(`retry: ${RETRY_MS}\n\n`));
      send(feeMessage(getInquiryFeeCents()));
    },
    cancel() {
      cleanup();
    },
  });
  return new Response(stream, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store",
      Connection: "keep-alive",
      "X-Accel-Buffering": "no",
    },
  });
}
