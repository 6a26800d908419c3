// The test provider's stand-in for Stripe.js confirming a card: POST {client_secret, card_number,
// expiry, cvc} -> {status, payment_intent_id} or {error}. No money moves.
import { jsonObjectOrErrorResponse, jsonResponse } from "../server/http/json-api.server";
import { cardAttemptRateLimit } from "../server/payments/test-provider.server";
import { getTestProvider, testPaymentsEnabled } from "../server/payments/index.server";
import { clientIp } from "../server/http/request-context.server";
import { countDecline } from "../server/payments/card-testing.server";
import type { Route } from "./+types/api.test-payments.confirm";

export async function action({ request, context }: Route.ActionArgs) {
  if (!testPaymentsEnabled()) return jsonResponse({ error: "Not found" }, 404);
  const body = await jsonObjectOrErrorResponse(request, 4 * 1024);
  if (body instanceof Response) return body;
  const key = `card:${clientIp(context)}`;
  if (!(await cardAttemptRateLimit.hit(key))) {
    return jsonResponse({ error: "Too many attempts. Please wait a few minutes." }, 429, {
      "Retry-After": String(await cardAttemptRateLimit.retryAfterSeconds(key)),
    });
  }
  const text = (name: string) => (typeof body[name] === "string" ? (body[name] as string) : "");
  const result = await getTestProvider().confirmWithCard(text("client_secret"), {
    number: text("card_number"),
    expiry: text("expiry"),
    cvc: text("cvc"),
  });
  if (!result.ok) {
    if (result.declined) await countDecline(result.payment?.reference);
    return jsonResponse({ error: result.message }, 402);
  }
  return jsonResponse({ status: result.payment.status, payment_intent_id: result.payment.paymentId });
}

export function loader() {
  if (!testPaymentsEnabled()) return jsonResponse({ error: "Not found" }, 404);
  return jsonResponse({ error: "Method not allowed" }, 405, { Allow: "POST" });
}
