import { env } from "../runtime/env.server";
import type { PaymentProvider, ProviderName } from "./provider.server";
import { createStripeProvider } from "./stripe.server";
import { createTestProvider, type TestPaymentProvider } from "./test-provider.server";

export type { PaymentProvider, PaymentState, ProviderName, RefundResult } from "./provider.server";
export { PaymentNotFoundError, RefundError } from "./provider.server";

let stripeProvider: PaymentProvider | undefined;
let testProvider: TestPaymentProvider | undefined;

/** The provider new payments go through: PAYMENTS, or stripe when keys are set (app/server/runtime/env.server.ts). */
export function activeProviderName(): ProviderName {
  return env.payments;
}

/** The test provider's own pages and endpoints exist only while it is the active provider. */
export function testPaymentsEnabled(): boolean {
  return env.payments === "test";
}

/**
 * The provider new payments go through; with a name, that provider (e.g. to refund an inquiry paid
 * through the test provider before Stripe was configured). Asking for stripe without a key throws.
 */
export function getPaymentProvider(name: ProviderName = activeProviderName()): PaymentProvider {
  if (name === "stripe") {
    if (!env.STRIPE_SECRET_KEY) throw new Error("Stripe is not configured (STRIPE_SECRET_KEY)");
    return (stripeProvider ??= createStripeProvider());
  }
  return getTestProvider();
}

export function getTestProvider(): TestPaymentProvider {
  return (testProvider ??= createTestProvider());
}
