// POST {payment_intent_id, domain_name, customer_info} -> {ok} or {error}. The server asks the provider
// whether the payment succeeded (the browser's word is not enough) and fulfils the inquiry once.
import { PAYMENT_TEXTS } from "../lib/inquiry";
import { BUSY_MESSAGE, BUSY_RETRY_AFTER_SECONDS, isDatabaseBusy } from "../server/db/database.server";
import { findDomainByParam } from "../server/catalog/domains.server";
import { jsonObjectOrErrorResponse, jsonResponse } from "../server/http/json-api.server";
import { fulfilPayment } from "../server/payments/fulfil.server";
import { paymentPagePath } from "../server/payments/flow.server";
import { getPaymentProvider, type ProviderName } from "../server/payments/index.server";
import {
  findInquiryByPaymentId,
  findInquiryByPublicId,
  findInquiryForDelistedDomain,
} from "../server/inquiries/inquiries.server";
import {
  countDecline,
  providerAskRateLimit,
  throttledAsk,
  TOO_MANY_CHECKS_TEXT,
} from "../server/payments/card-testing.server";
import { clientIp, requestValues } from "../server/http/request-context.server";
import type { Route } from "./+types/api.confirm-payment";

export async function action({ request, context }: Route.ActionArgs) {
  const body = await jsonObjectOrErrorResponse(request, 32 * 1024);
  if (body instanceof Response) return body;
  const paymentId = typeof body.payment_intent_id === "string" ? body.payment_intent_id.slice(0, 255) : "";
  const domainParam = typeof body.domain_name === "string" ? body.domain_name.slice(0, 300) : "";
  // A payment no inquiry points at any more (a second tab's payment) is still looked up, so it gets refunded.
  const known = paymentId ? await findInquiryByPaymentId(paymentId) : null;
  // A domain deleted while its buyer paid is not live any more; its inquiry still records the payment.
  const domain =
    (await findDomainByParam(domainParam)) ??
    (known && (await findInquiryForDelistedDomain(domainParam, known.public_id)) ? { id: known.domain_id } : null);
  if (!paymentId || !domain) return jsonResponse({ error: PAYMENT_TEXTS.confirmFailed }, 404);
  try {
    const provider = known ? getPaymentProvider(known.provider as ProviderName) : getPaymentProvider();
    const ipKey = `provider-ask:${clientIp(context)}`;
    if (!(await providerAskRateLimit.hit(ipKey))) {
      return jsonResponse({ error: TOO_MANY_CHECKS_TEXT }, 429, {
        "Retry-After": String(await providerAskRateLimit.retryAfterSeconds(ipKey)),
      });
    }
    const result = await throttledAsk(`confirm:${paymentId}`, () => fulfilPayment(provider, { paymentId }));
    if (
      !result.ok &&
      result.reason === "not_succeeded" &&
      result.state?.status === "requires_payment_method" &&
      result.state.lastError
    ) {
      await countDecline(result.state.reference);
    }
    if (
      !result.ok &&
      result.reason === "not_succeeded" &&
      result.state?.status === "processing" &&
      result.state.reference
    ) {
      // Paid but not settled yet (e.g. a bank debit): recorded when it succeeds; the page says so.
      const inquiry = await findInquiryByPublicId(result.state.reference);
      if (inquiry && inquiry.domain_id === domain.id)
        return jsonResponse({ ok: true, processing: true, redirect: paymentPagePath(inquiry) }, 202);
    }
    if (!result.ok) {
      const message =
        result.reason === "not_succeeded" ? "The payment has not been completed." : PAYMENT_TEXTS.confirmFailed;
      return jsonResponse(
        { error: message },
        result.reason === "not_succeeded" ? 402 : result.reason === "not_found" ? 404 : 409,
      );
    }
    if (result.inquiry.domain_id !== domain.id) return jsonResponse({ error: PAYMENT_TEXTS.confirmFailed }, 409);
    return jsonResponse({ ok: true, inquiry_id: result.inquiry.public_id, redirect: paymentPagePath(result.inquiry) });
  } catch (error) {
    requestValues(context).log.error({ paymentId, error: (error as Error).message }, "confirm failed");
    // The payment stays recorded at the provider; the page's reconcile or the webhook fulfils it later.
    if (isDatabaseBusy(error))
      return jsonResponse({ error: BUSY_MESSAGE }, 503, { "Retry-After": String(BUSY_RETRY_AFTER_SECONDS) });
    return jsonResponse({ error: "Payment processing failed" }, 502);
  }
}

export function loader() {
  return jsonResponse({ error: "Method not allowed" }, 405, { Allow: "POST" });
}
