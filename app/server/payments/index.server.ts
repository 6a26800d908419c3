import { env } from "../env.server";
import type { PaymentProvider, ProviderName } from "./provider.server";
import { createStripeProvider } from "./stripe.server";
import { createTestProvider, type TestPaymentProvider } from "./test-provider.server";

export type { PaymentProvider, PaymentState, ProviderName, RefundResult } from "./provider.server";
export { PaymentNotFoundError, RefundError } from "./provider.server";

let stripeProvider: PaymentProvider | undefined;
let testProvider: TestPaymentProvider | undefined;

/** stripe when STRIPE_SECRET_KEY is set, otherwise the offline test provider. */
export function activeProviderName(): ProviderName {
  return env.STRIPE_SECRET_KEY ? "stripe" : "test";
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
