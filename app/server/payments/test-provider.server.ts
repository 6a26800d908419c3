// The embedded, offline payment provider: the same observable flow as Stripe (a payment the browser
// confirms, a hosted checkout page for the no-JavaScript path, refunds), kept in SQLite. No money moves.
import { createHash, randomBytes } from "node:crypto";
import type { TestPaymentsTable } from "../../../db/schema";
import { checkTestCard, type CardInput } from "../../lib/test-card";
import { nowIso } from "../runtime/clock.server";
import { lazyStatement, sqlite } from "../db/database.server";
import { createRateLimit } from "../http/rate-limit.server";
import {
  PaymentNotFoundError,
  RefundError,
  type CheckoutRequest,
  type PaymentProvider,
  type PaymentRequest,
  type PaymentState,
  type RefundResult,
} from "./provider.server";

type TestPaymentRow = TestPaymentsTable;
interface TestCheckoutRow {
  id: string;
  payment_id: string;
  success_url: string;
  cancel_url: string;
}

const insertPayment = lazyStatement<[string, string, number, string, string, string, string, string]>(
  `INSERT OR IGNORE INTO test_payments
     (id, client_secret, amount_cents, currency, status, inquiry_public_id, domain_name, last_error, created_at, updated_at)
   VALUES (?, ?, ?, ?, 'requires_payment_method', ?, ?, NULL, ?, ?)`,
);
const selectPayment = lazyStatement<[string], TestPaymentRow>("SELECT * FROM test_payments WHERE id = ?");
const selectPaymentBySecret = lazyStatement<[string], TestPaymentRow>("SELECT * FROM test_payments WHERE client_secret = ?");
const markSucceeded = lazyStatement<[string, string]>(
  "UPDATE test_payments SET status = 'succeeded', last_error = NULL, updated_at = ? WHERE id = ? AND status = 'requires_payment_method'",
);
const recordDecline = lazyStatement<[string, string, string]>(
  "UPDATE test_payments SET last_error = ?, updated_at = ? WHERE id = ? AND status = 'requires_payment_method'",
);
const markRefunded = lazyStatement<[string, string]>(
  "UPDATE test_payments SET status = 'refunded', updated_at = ? WHERE id = ? AND status = 'succeeded'",
);
const cancelPaymentRow = lazyStatement<[string, string]>(
  "UPDATE test_payments SET status = 'canceled', updated_at = ? WHERE id = ? AND status = 'requires_payment_method'",
);
const insertCheckout = lazyStatement<[string, string, string, string, string]>(
  "INSERT OR IGNORE INTO test_checkouts (id, payment_id, success_url, cancel_url, created_at) VALUES (?, ?, ?, ?, ?)",
);
const selectCheckout = lazyStatement<[string], TestCheckoutRow>("SELECT * FROM test_checkouts WHERE id = ?");

/** The same idempotency key always names the same payment, as with Stripe's Idempotency-Key. */
function idFromKey(prefix: string, key: string): string {
  return `${prefix}_${createHash("sha256").update(key).digest("base64url").slice(0, 24)}`;
}

function toState(row: TestPaymentRow): PaymentState {
  return {
    paymentId: row.id,
    status: row.status,
    amountCents: row.amount_cents,
    currency: row.currency,
    inquiryPublicId: row.inquiry_public_id,
    domainName: row.domain_name,
    lastError: row.last_error,
    clientSecret: row.status === "requires_payment_method" ? row.client_secret : null,
  };
}

function createPaymentRow(request: PaymentRequest): TestPaymentRow {
  const id = idFromKey("tpi", request.idempotencyKey);
  const secret = `${id}_secret_${randomBytes(16).toString("base64url")}`;
  const timestamp = nowIso();
  insertPayment().run(id, secret, request.amountCents, request.currency, request.inquiryPublicId, request.domainName, timestamp, timestamp);
  return selectPayment().get(id)!;
}

export type CardConfirmation =
  | { ok: true; payment: PaymentState }
  | { ok: false; message: string; payment: PaymentState | null; declined?: boolean };

export interface TestPaymentProvider extends PaymentProvider {
  /** What Stripe.js does for a real card: confirm the payment named by its client secret. */
  confirmWithCard(clientSecret: string, card: CardInput): CardConfirmation;
  /** The local checkout page's data. */
  findCheckout(checkoutId: string): { checkoutId: string; successUrl: string; cancelUrl: string; payment: PaymentState } | null;
}

export function createTestProvider(): TestPaymentProvider {
  return {
    name: "test",

    async createPayment(request) {
      const row = createPaymentRow(request);
      return { paymentId: row.id, clientSecret: row.client_secret };
    },

    async createCheckout(request: CheckoutRequest) {
      const payment = createPaymentRow({ ...request, idempotencyKey: `${request.idempotencyKey}:payment` });
      const id = idFromKey("tcs", request.idempotencyKey);
      insertCheckout().run(id, payment.id, request.successUrl, request.cancelUrl, nowIso());
      return { checkoutId: id, url: `/test-checkout/${id}` };
    },

    async retrievePayment(paymentId) {
      const row = selectPayment().get(paymentId);
      if (!row) throw new PaymentNotFoundError(`No test payment ${paymentId}`);
      return toState(row);
    },

    async retrieveCheckoutUrl(checkoutId) {
      const checkout = selectCheckout().get(checkoutId);
      const row = checkout ? selectPayment().get(checkout.payment_id) : undefined;
      return row?.status === "requires_payment_method" ? `/test-checkout/${checkoutId}` : null;
    },

    async retrieveCheckoutPayment(checkoutId) {
      const checkout = selectCheckout().get(checkoutId);
      if (!checkout) throw new PaymentNotFoundError(`No test checkout ${checkoutId}`);
      const row = selectPayment().get(checkout.payment_id);
      return row ? toState(row) : null;
    },

    async refund(paymentId, _idempotencyKey): Promise<RefundResult> {
      const refundId = `tre_${paymentId.slice(4)}`;
      const refunded = sqlite.transaction(() => {
        const row = selectPayment().get(paymentId);
        if (!row) throw new PaymentNotFoundError(`No test payment ${paymentId}`);
        if (row.status === "refunded") return true;
        if (row.status !== "succeeded") return false;
        return markRefunded().run(nowIso(), paymentId).changes === 1;
      })();
      if (!refunded) throw new RefundError("Only a succeeded payment can be refunded", true, false);
      return { refundId, status: "succeeded" };
    },

    async retrieveRefund(refundId) {
      return { refundId, status: "succeeded" };
    },

    async cancelPayment(paymentId) {
      cancelPaymentRow().run(nowIso(), paymentId);
      const row = selectPayment().get(paymentId);
      return !row || row.status === "canceled";
    },

    async expireCheckout() {
      // The local checkout page closes with its payment (cancelPayment).
    },

    confirmWithCard(clientSecret, card) {
      const row = selectPaymentBySecret().get(clientSecret);
      if (!row) return { ok: false, message: "This payment no longer exists. Please start again.", payment: null };
      if (row.status === "succeeded") return { ok: true, payment: toState(row) };
      if (row.status !== "requires_payment_method") {
        return { ok: false, message: "This payment can no longer be completed.", payment: toState(row) };
      }
      const check = checkTestCard(card);
      if (check.outcome !== "approved") {
        if (check.outcome === "declined") recordDecline().run(check.message, nowIso(), row.id);
        return { ok: false, message: check.message, payment: toState(selectPayment().get(row.id)!), declined: check.outcome === "declined" };
      }
      markSucceeded().run(nowIso(), row.id);
      return { ok: true, payment: toState(selectPayment().get(row.id)!) };
    },

    findCheckout(checkoutId) {
      const checkout = selectCheckout().get(checkoutId);
      if (!checkout) return null;
      const row = selectPayment().get(checkout.payment_id);
      if (!row) return null;
      return { checkoutId: checkout.id, successUrl: checkout.success_url, cancelUrl: checkout.cancel_url, payment: toState(row) };
    },
  };
}

/** Card attempts per client address, on both the inline form and the checkout page. */
export const cardAttemptRateLimit = createRateLimit({ limit: 30, windowMs: 10 * 60 * 1000 });
