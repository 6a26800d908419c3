import { env } from "../server/runtime/env.server";
import { FEE_STREAM_HEADERS, feeMessage, SSE_HEARTBEAT, SSE_PREAMBLE, subscribeToFee } from "../server/catalog/events.server";
import { getInquiryFeeCents } from "../server/catalog/settings.server";

/**
 * Server-Sent Events: the current fee on connect, then every change, with a heartbeat comment.
 * The production server answers /events/fee itself, on the raw socket (app/server/http/fee-stream.server.ts);
 * this route serves `react-router dev` and any other host of the build.
 */
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
      // Subscribed before the fee is read; a change heard before the read answers is the newer one.
      let heardChange = false;
      const unsubscribe = subscribeToFee((event) => {
        heardChange = true;
        send(feeMessage(event.cents));
      }, close);
      const heartbeat = setInterval(() => send(SSE_HEARTBEAT), env.SSE_HEARTBEAT_MS);
      cleanup = () => {
        clearInterval(heartbeat);
        unsubscribe();
      };
      request.signal.addEventListener("abort", close, { once: true });
      send(SSE_PREAMBLE);
      getInquiryFeeCents().then(
        (cents) => {
          if (!heardChange) send(feeMessage(cents));
        },
        () => {},
      );
    },
    cancel() {
      cleanup();
    },
  });
  return new Response(stream, { headers: FEE_STREAM_HEADERS });
}

