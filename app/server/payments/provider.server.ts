// The one payment interface the routes and fulfilment use. Two implementations: stripe (when
// STRIPE_SECRET_KEY is set) and test (the embedded, offline default). Amounts are integer cents.

export type ProviderName = "stripe" | "test";

export interface PaymentRequest {
  inquiryPublicId: string;
  domainName: string;
  amountCents: number;
  currency: "usd";
  /** Same key, same payment: a retried request never creates a second charge. */
  idempotencyKey: string;
}

export interface CheckoutRequest extends PaymentRequest {
  successUrl: string;
  cancelUrl: string;
  buyerEmail?: string;
}

export interface PaymentState {
  paymentId: string;
  status: "requires_payment_method" | "processing" | "succeeded" | "failed" | "canceled" | "refunded";
  amountCents: number;
  currency: string;
  inquiryPublicId: string | null;
  domainName: string | null;
  lastError: string | null;
  /** What the browser needs to confirm this payment (JavaScript path); null once it cannot be confirmed. */
  clientSecret: string | null;
}

/** A payment or checkout id the provider does not know. */
export class PaymentNotFoundError extends Error {}

export interface RefundResult {
  refundId: string;
  status: "succeeded" | "pending" | "failed";
}

export interface PaymentProvider {
  readonly name: ProviderName;
  /** For the JavaScript path: a payment the browser confirms with its client secret. */
  createPayment(request: PaymentRequest): Promise<{ paymentId: string; clientSecret: string }>;
  /** For the no-JavaScript path: a hosted checkout page the buyer is redirected to (303). */
  createCheckout(request: CheckoutRequest): Promise<{ checkoutId: string; url: string }>;
  /** Reads a payment back from the provider: the only source of truth for "paid". */
  retrievePayment(paymentId: string): Promise<PaymentState>;
  /** The checkout page's address while the buyer can still pay there; null once it expired or completed. */
  retrieveCheckoutUrl(checkoutId: string): Promise<string | null>;
  /** Resolves a completed checkout to its payment. */
  retrieveCheckoutPayment(checkoutId: string): Promise<PaymentState | null>;
  refund(paymentId: string, idempotencyKey: string): Promise<RefundResult>;
}
