import { data, Form, redirect } from "react-router";
import { TestCardFields } from "../components/payment/test-card-form";
import { card, PageShell, primaryButton, secondaryButton } from "../components/ui";
import { PAYMENT_TEXTS } from "../lib/inquiry";
import { formatUsd } from "../lib/money";
import { TEST_MODE_LABEL } from "../lib/test-card";
import { env } from "../server/runtime/env.server";
import { getTestProvider, testPaymentsEnabled } from "../server/payments/index.server";
import { cardAttemptRateLimit } from "../server/payments/test-provider.server";
import { clientIp } from "../server/http/request-context.server";
import { countDecline } from "../server/payments/card-testing.server";
import { currentFeePromise } from "../server/inquiries/refund-promise.server";
import type { Route } from "./+types/test-checkout";

// The test provider's hosted checkout page (the no-JavaScript path): like Stripe Checkout, it is
// reached by a 303 from the inquiry form and returns by a 303 to the payment page.

function successUrl(checkout: { checkoutId: string; successUrl: string }): string {
  return checkout.successUrl.replace("{CHECKOUT_SESSION_ID}", encodeURIComponent(checkout.checkoutId));
}

/** With Stripe configured the test checkout does not exist: nothing can be paid here for free. */
async function testCheckout(checkoutId: string) {
  const checkout = testPaymentsEnabled() ? await getTestProvider().findCheckout(checkoutId) : undefined;
  if (!checkout) throw data(null, { status: 404 });
  return checkout;
}

export async function loader({ params }: Route.LoaderArgs) {
  const checkout = await testCheckout(params.checkoutId);
  if (checkout.payment.status === "succeeded") throw redirect(successUrl(checkout), 303);
  return {
    siteName: env.SITE_NAME,
    domainName: checkout.payment.domainName ?? "",
    amountCents: checkout.payment.amountCents,
    payable: checkout.payment.status === "requires_payment_method",
    cancelUrl: checkout.cancelUrl,
    purpose: checkout.payment.purpose,
    // The fee's promise is about inquiries; a deal's price has none.
    promise: checkout.payment.purpose === "deal" ? "" : await currentFeePromise(),
  };
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const checkout = await testCheckout(params.checkoutId);
  const provider = getTestProvider();
  if (checkout.payment.status === "succeeded") return redirect(successUrl(checkout), 303);
  const key = `card:${clientIp(context)}`;
  if (!(await cardAttemptRateLimit.hit(key)))
    return data({ error: "Too many attempts. Please wait a few minutes." }, { status: 429 });
  if (!checkout.payment.clientSecret)
    return data({ error: "This payment can no longer be completed." }, { status: 409 });
  const form = await request.formData();
  const result = await provider.confirmWithCard(checkout.payment.clientSecret, {
    number: String(form.get("card_number") ?? ""),
    expiry: String(form.get("expiry") ?? ""),
    cvc: String(form.get("cvc") ?? ""),
  });
  if (!result.ok && result.declined) await countDecline(result.payment?.reference);
  if (!result.ok)
    return data({ error: `Payment failed: ${result.message || PAYMENT_TEXTS.cardErrorFallback}` }, { status: 402 });
  return redirect(successUrl(checkout), 303);
}

export function headers() {
  return { "Cache-Control": "no-store" };
}

export default function TestCheckoutPage({ loaderData, actionData }: Route.ComponentProps) {
  const fee = formatUsd(loaderData.amountCents);
  return (
    <PageShell>
      <section className={card}>
        <p className="inline-block rounded bg-amber-400/15 px-2 py-0.5 text-sm font-medium text-amber-200">
          {TEST_MODE_LABEL}
        </p>
        <h1 className="mt-4 text-3xl font-semibold">Checkout</h1>
        <p className="mt-2 text-slate-300">
          {loaderData.purpose === "deal" ? "Purchase of" : "Inquiry for"}{" "}
          <strong className="text-white">{loaderData.domainName}</strong>: <strong className="text-white">{fee}</strong>
        </p>
        {loaderData.payable ? (
          <Form method="post" className="mt-6 space-y-4" reloadDocument>
            <TestCardFields />
            {actionData?.error && (
              <div role="alert" className="rounded-lg border border-red-500/50 bg-red-950/60 px-4 py-3 text-red-100">
                {actionData.error}
              </div>
            )}
            <button type="submit" className={`${primaryButton} w-full text-lg`}>
              Pay {fee}
            </button>
            {loaderData.promise ? (
              <p data-promise className="text-center text-sm font-medium text-emerald-300">
                {loaderData.promise}
              </p>
            ) : null}
          </Form>
        ) : (
          <p role="alert" className="mt-6 text-slate-200">
            This payment can no longer be completed.
          </p>
        )}
        <a href={loaderData.cancelUrl} className={`${secondaryButton} mt-4 w-full`}>
          Cancel and go back
        </a>
      </section>
    </PageShell>
  );
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: `Test checkout | ${loaderData?.siteName ?? ""}` }, { name: "robots", content: "noindex" }];
}
