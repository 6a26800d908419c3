// The embedded, offline payment provider: the same observable flow as Stripe (a payment the browser
// confirms, a hosted checkout page for the no-JavaScript path, refunds), kept in the database. No money moves.
import { createHash, randomBytes } from "node:crypto";
import type { Selectable } from "kysely";
import type { TestPaymentsTable } from "../../../db/schema";
import { checkTestCard, type CardInput } from "../../lib/test-card";
import { nowIso } from "../runtime/clock.server";
import { db } from "../db/database.server";
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

type TestPaymentRow = Selectable<TestPaymentsTable>;
interface TestCheckoutRow {
  id: string;
  payment_id: string;
  success_url: string;
  cancel_url: string;
}

async function selectPayment(id: string): Promise<TestPaymentRow | undefined> {
  return db.selectFrom("test_payments").selectAll().where("id", "=", id).executeTakeFirst();
}

async function selectCheckout(id: string): Promise<TestCheckoutRow | undefined> {
  return db
    .selectFrom("test_checkouts")
    .select(["id", "payment_id", "success_url", "cancel_url"])
    .where("id", "=", id)
    .executeTakeFirst();
}

/** Moves a payment from `from` to another state; true when this call changed it. */
async function moveStatus(
  id: string,
  from: TestPaymentRow["status"],
  change: Partial<Pick<TestPaymentRow, "status" | "last_error">>,
): Promise<boolean> {
  const result = await db
    .updateTable("test_payments")
    .set({ ...change, updated_at: nowIso() })
    .where("id", "=", id)
    .where("status", "=", from)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

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
    purpose: row.purpose,
    reference: row.inquiry_public_id,
    domainName: row.domain_name,
    lastError: row.last_error,
    clientSecret: row.status === "requires_payment_method" ? row.client_secret : null,
  };
}

async function createPaymentRow(request: PaymentRequest): Promise<TestPaymentRow> {
  const id = idFromKey("tpi", request.idempotencyKey);
  const timestamp = nowIso();
  await db
    .insertInto("test_payments")
    .values({
      id,
      client_secret: `${id}_secret_${randomBytes(16).toString("base64url")}`,
      amount_cents: request.amountCents,
      currency: request.currency,
      status: "requires_payment_method",
      inquiry_public_id: request.reference,
      purpose: request.purpose ?? "inquiry",
      domain_name: request.domainName,
      last_error: null,
      created_at: timestamp,
      updated_at: timestamp,
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
  return (await selectPayment(id))!;
}

export type CardConfirmation =
  | { ok: true; payment: PaymentState }
  | { ok: false; message: string; payment: PaymentState | null; declined?: boolean };

export interface TestPaymentProvider extends PaymentProvider {
  /** What Stripe.js does for a real card: confirm the payment named by its client secret. */
  confirmWithCard(clientSecret: string, card: CardInput): Promise<CardConfirmation>;
  /** The local checkout page's data. */
  findCheckout(
    checkoutId: string,
  ): Promise<{ checkoutId: string; successUrl: string; cancelUrl: string; payment: PaymentState } | null>;
}

export function createTestProvider(): TestPaymentProvider {
  return {
    name: "test",

    async createPayment(request) {
      const row = await createPaymentRow(request);
      return { paymentId: row.id, clientSecret: row.client_secret };
    },

    async createCheckout(request: CheckoutRequest) {
      const payment = await createPaymentRow({ ...request, idempotencyKey: `${request.idempotencyKey}:payment` });
      const id = idFromKey("tcs", request.idempotencyKey);
      await db
        .insertInto("test_checkouts")
        .values({
          id,
          payment_id: payment.id,
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
          created_at: nowIso(),
        })
        .onConflict((oc) => oc.doNothing())
        .execute();
      return { checkoutId: id, url: `/test-checkout/${id}` };
    },

    async retrievePayment(paymentId) {
      const row = await selectPayment(paymentId);
      if (!row) throw new PaymentNotFoundError(`No test payment ${paymentId}`);
      return toState(row);
    },

    async retrieveCheckoutUrl(checkoutId) {
      const checkout = await selectCheckout(checkoutId);
      const row = checkout ? await selectPayment(checkout.payment_id) : undefined;
      return row?.status === "requires_payment_method" ? `/test-checkout/${checkoutId}` : null;
    },

    async retrieveCheckoutPayment(checkoutId) {
      const checkout = await selectCheckout(checkoutId);
      if (!checkout) throw new PaymentNotFoundError(`No test checkout ${checkoutId}`);
      const row = await selectPayment(checkout.payment_id);
      return row ? toState(row) : null;
    },

    async refund(paymentId, _idempotencyKey): Promise<RefundResult> {
      const refundId = `tre_${paymentId.slice(4)}`;
      // Refunded by this call or an earlier one (a retry, a second process): both answer succeeded.
      if (!(await moveStatus(paymentId, "succeeded", { status: "refunded" }))) {
        const row = await selectPayment(paymentId);
        if (!row) throw new PaymentNotFoundError(`No test payment ${paymentId}`);
        if (row.status !== "refunded") throw new RefundError("Only a succeeded payment can be refunded", true, false);
      }
      return { refundId, status: "succeeded" };
    },

    async retrieveRefund(refundId) {
      return { refundId, status: "succeeded" };
    },

    async cancelPayment(paymentId) {
      await moveStatus(paymentId, "requires_payment_method", { status: "canceled" });
      const row = await selectPayment(paymentId);
      return !row || row.status === "canceled";
    },

    async expireCheckout(checkoutId) {
      // The local checkout page closes with its payment, as Stripe's expired session can no longer be paid.
      const checkout = await selectCheckout(checkoutId);
      if (checkout) await moveStatus(checkout.payment_id, "requires_payment_method", { status: "canceled" });
    },

    async confirmWithCard(clientSecret, card) {
      const row = await db
        .selectFrom("test_payments")
        .selectAll()
        .where("client_secret", "=", clientSecret)
        .executeTakeFirst();
      if (!row) return { ok: false, message: "This payment no longer exists. Please start again.", payment: null };
      if (row.status === "succeeded") return { ok: true, payment: toState(row) };
      if (row.status !== "requires_payment_method") {
        return { ok: false, message: "This payment can no longer be completed.", payment: toState(row) };
      }
      const check = checkTestCard(card);
      if (check.outcome !== "approved") {
        if (check.outcome === "declined")
          await moveStatus(row.id, "requires_payment_method", { last_error: check.message });
        return {
          ok: false,
          message: check.message,
          payment: toState((await selectPayment(row.id))!),
          declined: check.outcome === "declined",
        };
      }
      await moveStatus(row.id, "requires_payment_method", { status: "succeeded", last_error: null });
      return { ok: true, payment: toState((await selectPayment(row.id))!) };
    },

    async findCheckout(checkoutId) {
      const checkout = await selectCheckout(checkoutId);
      if (!checkout) return null;
      const row = await selectPayment(checkout.payment_id);
      if (!row) return null;
      return {
        checkoutId: checkout.id,
        successUrl: checkout.success_url,
        cancelUrl: checkout.cancel_url,
        payment: toState(row),
      };
    },
  };
}

/** Card attempts per client address, on both the inline form and the checkout page. */
export const cardAttemptRateLimit = createRateLimit({ name: "card-attempt", limit: 30, windowMs: 10 * 60 * 1000 });
