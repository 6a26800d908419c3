// The one payment interface the routes and fulfilment use. Two implementations: stripe (when
// STRIPE_SECRET_KEY is set) and test (the embedded, offline default). Amounts are integer cents.

export type ProviderName = "stripe" | "test";

/** What a payment is for: an inquiry's fee, or a deal's price (issue 37). */
export type PaymentPurpose = "inquiry" | "deal";

export interface PaymentRequest {
  /** Inquiry unless said. */
  purpose?: PaymentPurpose;
  /** The public id of the inquiry or deal paid for. */
  reference: string;
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
  purpose: PaymentPurpose;
  reference: string | null;
  domainName: string | null;
  lastError: string | null;
  /** What the browser needs to confirm this payment (JavaScript path); null once it cannot be confirmed. */
  clientSecret: string | null;
}

/** A payment or checkout id the provider does not know. */
export class PaymentNotFoundError extends Error {}

export interface RefundResult {
  refundId: string;
  /** Stripe's pending and requires_action are "pending": the money is not back yet. */
  status: "succeeded" | "pending" | "failed";
  failureReason?: string | null;
}

/**
 * A refund request that did not go through. `definite`: the provider answered (its idempotency key
 * now replays this answer, so the next attempt needs a new key); otherwise (timeout, connection) the
 * same key is used again. `permanent`: retrying cannot help (e.g. the charge is disputed).
 */
export class RefundError extends Error {
  readonly definite: boolean;
  readonly permanent: boolean;
  constructor(message: string, definite: boolean, permanent: boolean) {
    super(message);
    this.definite = definite;
    this.permanent = permanent;
  }
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
  /** Throws RefundError; a payment already refunded in full answers succeeded. */
  refund(paymentId: string, idempotencyKey: string): Promise<RefundResult>;
  /** The current state of a refund that was pending. */
  retrieveRefund(refundId: string): Promise<RefundResult>;
  /** Cancels a payment that has not been paid; false when it can no longer be canceled (paid or processing). */
  cancelPayment(paymentId: string): Promise<boolean>;
  /** Closes a checkout page that is still open (no-op otherwise). */
  expireCheckout(checkoutId: string): Promise<void>;
}
