// Real card payments through Stripe: PaymentIntents for the JavaScript path, Checkout Sessions for
// the no-JavaScript path. STRIPE_API_BASE points the SDK at another Stripe-compatible server (tests).
import Stripe from "stripe";
import { env } from "../runtime/env.server";
import {
  PaymentNotFoundError,
  RefundError,
  type RefundResult,
  type CheckoutRequest,
  type PaymentProvider,
  type PaymentRequest,
  type PaymentState,
} from "./provider.server";

let client: Stripe | undefined;

/** The one Stripe client (also used to verify webhooks). */
export function getStripeClient(): Stripe {
  if (client) return client;
  if (!env.STRIPE_SECRET_KEY) throw new Error("STRIPE_SECRET_KEY is not set");
  const options: ConstructorParameters<typeof Stripe>[1] = { maxNetworkRetries: 2, timeout: env.STRIPE_TIMEOUT_MS };
  if (env.STRIPE_API_BASE) {
    const base = new URL(env.STRIPE_API_BASE);
    options.host = base.hostname;
    options.protocol = base.protocol === "http:" ? "http" : "https";
    options.port = base.port || (base.protocol === "http:" ? 80 : 443);
  }
  client = new Stripe(env.STRIPE_SECRET_KEY, options);
  return client;
}

function metadataFor(request: PaymentRequest): Record<string, string> {
  const key = request.purpose === "deal" ? "deal_id" : "inquiry_id";
  return { [key]: request.reference, domain: request.domainName };
}

function mapStatus(intent: Stripe.PaymentIntent): PaymentState["status"] {
  switch (intent.status) {
    case "succeeded":
      return "succeeded";
    case "processing":
    case "requires_capture":
      return "processing";
    case "canceled":
      return "canceled";
    default:
      return "requires_payment_method";
  }
}

function toState(intent: Stripe.PaymentIntent): PaymentState {
  const status = mapStatus(intent);
  return {
    paymentId: intent.id,
    status,
    amountCents: intent.amount_received && status === "succeeded" ? intent.amount_received : intent.amount,
    currency: intent.currency,
    purpose: intent.metadata?.deal_id ? "deal" : "inquiry",
    reference: intent.metadata?.deal_id ?? intent.metadata?.inquiry_id ?? null,
    domainName: intent.metadata?.domain ?? null,
    lastError: intent.last_payment_error?.message ?? null,
    clientSecret: status === "requires_payment_method" ? intent.client_secret : null,
  };
}

function isMissing(error: unknown): boolean {
  return error instanceof Stripe.errors.StripeInvalidRequestError && error.code === "resource_missing";
}

function toRefundResult(refund: Stripe.Refund): RefundResult {
  const status =
    refund.status === "succeeded"
      ? "succeeded"
      : refund.status === "failed" || refund.status === "canceled"
        ? "failed"
        : "pending";
  return { refundId: refund.id, status, failureReason: refund.failure_reason ?? null };
}

// Refusals that a retry cannot change: the admin settles these by hand.
const PERMANENT_REFUND_CODES = new Set([
  "charge_disputed",
  "charge_expired_for_capture",
  "amount_too_large",
  "resource_missing",
]);

function toRefundError(error: unknown): RefundError {
  const message = (error as Error).message || String(error);
  if (!(error instanceof Stripe.errors.StripeError)) return new RefundError(message, false, false);
  // No answer (timeout, connection): Stripe may not have seen the request, so the same key is reused.
  if (error instanceof Stripe.errors.StripeConnectionError) return new RefundError(message, false, false);
  return new RefundError(message, true, PERMANENT_REFUND_CODES.has(error.code ?? ""));
}

export function createStripeProvider(): PaymentProvider {
  return {
    name: "stripe",

    async createPayment(request) {
      const intent = await getStripeClient().paymentIntents.create(
        {
          amount: request.amountCents,
          currency: request.currency,
          automatic_payment_methods: { enabled: true },
          description: `Inquiry for ${request.domainName}`,
          metadata: metadataFor(request),
        },
        { idempotencyKey: request.idempotencyKey },
      );
      if (!intent.client_secret) throw new Error("Stripe returned a payment without a client secret");
      return { paymentId: intent.id, clientSecret: intent.client_secret };
    },

    async createCheckout(request: CheckoutRequest) {
      const session = await getStripeClient().checkout.sessions.create(
        {
          mode: "payment",
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: request.currency,
                unit_amount: request.amountCents,
                product_data: { name: `Inquiry for ${request.domainName}` },
              },
            },
          ],
          client_reference_id: request.reference,
          customer_email: request.buyerEmail,
          metadata: metadataFor(request),
          payment_intent_data: { metadata: metadataFor(request) },
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
        },
        { idempotencyKey: request.idempotencyKey },
      );
      if (!session.url) throw new Error("Stripe returned a checkout session without a URL");
      return { checkoutId: session.id, url: session.url };
    },

    async retrievePayment(paymentId) {
      try {
        return toState(await getStripeClient().paymentIntents.retrieve(paymentId));
      } catch (error) {
        if (isMissing(error)) throw new PaymentNotFoundError(`No Stripe payment ${paymentId}`);
        throw error;
      }
    },

    async retrieveCheckoutUrl(checkoutId) {
      try {
        const session = await getStripeClient().checkout.sessions.retrieve(checkoutId);
        return session.status === "open" ? session.url : null;
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },

    async retrieveCheckoutPayment(checkoutId) {
      let session: Stripe.Checkout.Session;
      try {
        session = await getStripeClient().checkout.sessions.retrieve(checkoutId);
      } catch (error) {
        if (isMissing(error)) throw new PaymentNotFoundError(`No Stripe checkout ${checkoutId}`);
        throw error;
      }
      const intentId = typeof session.payment_intent === "string" ? session.payment_intent : session.payment_intent?.id;
      if (!intentId) return null;
      const state = toState(await getStripeClient().paymentIntents.retrieve(intentId));
      // The session names the inquiry even when the intent's own metadata was not copied.
      return {
        ...state,
        purpose: session.metadata?.deal_id ? "deal" : state.purpose,
        reference: state.reference ?? session.client_reference_id ?? null,
        domainName: state.domainName ?? session.metadata?.domain ?? null,
      };
    },

    async refund(paymentId, idempotencyKey) {
      try {
        return toRefundResult(
          await getStripeClient().refunds.create({ payment_intent: paymentId }, { idempotencyKey }),
        );
      } catch (error) {
        if (error instanceof Stripe.errors.StripeError && error.code === "charge_already_refunded") {
          return { refundId: "already_refunded", status: "succeeded" };
        }
        throw toRefundError(error);
      }
    },

    async retrieveRefund(refundId) {
      try {
        return toRefundResult(await getStripeClient().refunds.retrieve(refundId));
      } catch (error) {
        throw toRefundError(error);
      }
    },

    async cancelPayment(paymentId) {
      try {
        await getStripeClient().paymentIntents.cancel(paymentId);
        return true;
      } catch (error) {
        if (isMissing(error)) return true;
        // Stripe answers payment_intent_unexpected_state for a succeeded, processing or canceled intent.
        if (
          error instanceof Stripe.errors.StripeInvalidRequestError &&
          error.code === "payment_intent_unexpected_state"
        ) {
          return (await getStripeClient().paymentIntents.retrieve(paymentId)).status === "canceled";
        }
        throw error;
      }
    },

    async expireCheckout(checkoutId) {
      try {
        const session = await getStripeClient().checkout.sessions.retrieve(checkoutId);
        if (session.status === "open") await getStripeClient().checkout.sessions.expire(checkoutId);
      } catch (error) {
        if (!isMissing(error)) throw error;
      }
    },
  };
}
