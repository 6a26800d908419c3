// Stripe's webhook: the raw body is verified with STRIPE_WEBHOOK_SECRET (the signature is the
// same-origin check here); payment_intent.succeeded and checkout.session.completed fulfil the inquiry.
import { ApiError, jsonResponse, readBoundedText } from "../server/http/json-api.server";
import {
  handleStripeEvent,
  verifyStripeEvent,
  webhooksConfigured,
  WebhookSignatureError,
} from "../server/payments/stripe-webhook.server";
import type { Route } from "./+types/webhooks.stripe";
import { requestValues } from "../server/http/request-context.server";

const MAX_EVENT_BYTES = 512 * 1024;

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return jsonResponse({ error: "Method not allowed" }, 405, { Allow: "POST" });
  if (!webhooksConfigured()) return jsonResponse({ error: "Stripe webhooks are not configured" }, 404);
  const signature = request.headers.get("stripe-signature");
  if (!signature) return jsonResponse({ error: "Missing Stripe-Signature header" }, 400);
  let event;
  try {
    event = verifyStripeEvent(await readBoundedText(request, MAX_EVENT_BYTES), signature);
  } catch (error) {
    if (error instanceof ApiError) return jsonResponse({ error: error.message }, error.status);
    if (error instanceof WebhookSignatureError) return jsonResponse({ error: "Invalid signature" }, 400);
    throw error;
  }
  try {
    const processed = await handleStripeEvent(event);
    return jsonResponse({ received: true, duplicate: !processed });
  } catch (error) {
    requestValues(context).log.error(
      { id: event.id, type: event.type, error: (error as Error).message },
      "stripe event failed",
    );
    return jsonResponse({ error: "Processing failed; retry later" }, 500);
  }
}

export function loader() {
  return jsonResponse({ error: "Method not allowed" }, 405, { Allow: "POST" });
}
