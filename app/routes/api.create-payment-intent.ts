// POST {domain_name, customer_info: {name, email, phone, message, offer}} -> {client_secret,
// payment_intent_id, inquiry_id, redirect} or {error}. Any amount in the body is ignored: the server's fee is charged.
import { PAYMENT_TEXTS } from "../lib/inquiry";
import { BUSY_RETRY_AFTER_SECONDS } from "../server/db/database.server";
import { findDomainByParam } from "../server/catalog/domains.server";
import { jsonObjectOrErrorResponse, jsonResponse } from "../server/http/json-api.server";
import { createPaymentForInquiry, paymentPagePath, startInquiry } from "../server/payments/flow.server";
import { clientIp, requestValues } from "../server/http/request-context.server";
import { payerCookieFor } from "../server/payments/payer-cookie.server";
import type { Route } from "./+types/api.create-payment-intent";

export async function action({ request, context }: Route.ActionArgs) {
  const body = await jsonObjectOrErrorResponse(request, 32 * 1024);
  if (body instanceof Response) return body;
  const domain = typeof body.domain_name === "string" ? await findDomainByParam(body.domain_name) : null;
  if (!domain) return jsonResponse({ error: "Domain not found." }, 404);
  const info =
    body.customer_info && typeof body.customer_info === "object" ? (body.customer_info as Record<string, unknown>) : {};
  const started = await startInquiry(clientIp(context), domain, { ...info, website: body.website });
  if (started.kind === "invalid") {
    const retry: Record<string, string> =
      started.status === 503 ? { "Retry-After": String(BUSY_RETRY_AFTER_SECONDS) } : {};
    // below_minimum: the offer warning (409), which the form answers with "Send anyway"; a changed fee is a 409 too.
    const below = started.belowMinimum ? { below_minimum: true } : {};
    return jsonResponse({ error: started.message, field_errors: started.fieldErrors, ...below }, started.status, retry);
  }
  // This browser started the inquiry: its success step will show the inquiry's details and link.
  const payer = { "Set-Cookie": await payerCookieFor(request, started.inquiry.public_id) };
  if (started.kind === "free") {
    return jsonResponse(
      { ok: true, free: true, inquiry_id: started.inquiry.public_id, redirect: paymentPagePath(started.inquiry) },
      200,
      payer,
    );
  }
  try {
    const payment = await createPaymentForInquiry(started.inquiry);
    return jsonResponse(
      {
        client_secret: payment.clientSecret,
        payment_intent_id: payment.paymentId,
        inquiry_id: started.inquiry.public_id,
        amount: started.inquiry.amount_cents,
        currency: started.inquiry.currency,
        redirect: paymentPagePath(started.inquiry),
      },
      200,
      payer,
    );
  } catch (error) {
    requestValues(context).log.error(
      { inquiry: started.inquiry.id, error: (error as Error).message },
      "payment intent failed",
    );
    return jsonResponse({ error: PAYMENT_TEXTS.initFailedServer }, 502, payer);
  }
}

export function loader() {
  return jsonResponse({ error: "Method not allowed" }, 405, { Allow: "POST" });
}
