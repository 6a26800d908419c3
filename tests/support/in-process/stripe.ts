// The real stripe SDK against the Stripe-compatible test server (tests/support/fake-stripe.ts), for an
// in-process test file. Call it inside `vi.hoisted`, before the app's modules load (they read the
// environment once):
//   const { fake } = await vi.hoisted(async () => {
//     const { startStripeForApp } = await import("../support/in-process/stripe");
//     return { fake: await startStripeForApp({ MAX_PAYMENTS_PER_HOUR: "3" }) };
//   });
import { startFakeStripe, type FakeStripe } from "../fake-stripe";

/** Starts the fake Stripe and points the app at it (PAYMENTS=stripe), with `env`'s settings on top. */
export async function startStripeForApp(env: Record<string, string> = {}): Promise<FakeStripe> {
  const fake = await startFakeStripe();
  Object.assign(process.env, {
    PAYMENTS: "stripe",
    STRIPE_SECRET_KEY: "sk_test_fake",
    STRIPE_PUBLISHABLE_KEY: "pk_test_fake",
    STRIPE_API_BASE: fake.url,
    ...env,
  });
  return fake;
}
