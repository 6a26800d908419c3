import { lazy, Suspense, useCallback, useState } from "react";
import { Form, Link } from "react-router";
import { PAYMENT_TEXTS } from "../../lib/inquiry";
import { formatUsd } from "../../lib/money";
import { TEST_MODE_LABEL } from "../../lib/test-card";
import { primaryButton } from "../ui";
import { useHydrated } from "./payment-client";
import { TestCardForm } from "./test-card-form";

const StripePaymentForm = lazy(() => import("./stripe-payment-form"));

export interface PaymentStepProps {
  domainName: string;
  inquiryId: string;
  amountCents: number;
  provider: "stripe" | "test";
  clientSecret: string | null;
  publishableKey: string | null;
  paymentId: string | null;
  returnPath: string;
  /** The inquiry form again, filled with what was typed. */
  editPath: string;
  error: string | null;
  /** The fee's promise from the settings (feePromiseText), shown under the Pay button. */
  promise: string | null;
}

export function PaymentStep(props: PaymentStepProps) {
  const hydrated = useHydrated();
  const [stripeFailed, setStripeFailed] = useState(false);
  const markStripeUnavailable = useCallback(() => setStripeFailed(true), []);
  const fee = formatUsd(props.amountCents);
  const checkoutForm = (
    <Form method="post" reloadDocument className="mt-6">
      <input type="hidden" name="intent" value="checkout" />
      <input type="hidden" name="inquiry" value={props.inquiryId} />
      <button type="submit" className={`${primaryButton} w-full text-lg`}>
        {stripeFailed ? `Pay ${fee} on the checkout page` : `Pay ${fee}`}
      </button>
    </Form>
  );
  const enhanced = hydrated && props.clientSecret && props.paymentId && !stripeFailed;

  return (
    <div className="mt-6">
      <p className="text-slate-300">
        Inquiry fee: <strong className="text-white">{fee}</strong>
        {props.provider === "test" && (
          <span className="ml-2 rounded bg-amber-400/15 px-2 py-0.5 text-sm text-amber-200">{TEST_MODE_LABEL}</span>
        )}
      </p>
      {props.error && (
        <div role="alert" className="mt-4 rounded-lg border border-red-500/50 bg-red-950/60 px-4 py-3 text-red-100">
          {props.error}
        </div>
      )}
      {enhanced && props.provider === "test" && (
        <TestCardForm
          clientSecret={props.clientSecret!}
          fee={fee}
          domainName={props.domainName}
          returnPath={props.returnPath}
        />
      )}
      {enhanced && props.provider === "stripe" && (
        <Suspense fallback={<p className="mt-6 text-slate-300">{PAYMENT_TEXTS.loading}</p>}>
          <StripePaymentForm
            clientSecret={props.clientSecret!}
            publishableKey={props.publishableKey}
            fee={fee}
            domainName={props.domainName}
            returnPath={props.returnPath}
            onUnavailable={markStripeUnavailable}
          />
        </Suspense>
      )}
      {!enhanced && (
        <>
          {stripeFailed && (
            <p role="alert" className="mt-4 rounded-lg border border-red-500/50 bg-red-950/60 px-4 py-3 text-red-100">
              {props.publishableKey ? PAYMENT_TEXTS.stripeUnavailable : PAYMENT_TEXTS.missingPublishableKey}
            </p>
          )}
          {!stripeFailed && (
            <p className="mt-4 text-sm text-slate-300">
              {props.provider === "test"
                ? "You will enter your card on the test checkout page and come back here."
                : "You will pay on Stripe's secure checkout page and come back here."}
            </p>
          )}
          {checkoutForm}
        </>
      )}
      {props.promise && (
        <p data-promise className="mt-3 text-center text-sm font-medium text-emerald-300">
          {props.promise}
        </p>
      )}
      <p className="mt-6 text-center text-sm">
        <Link to={props.editPath} className="text-blue-300 underline underline-offset-4 hover:text-blue-200">
          Edit details
        </Link>
      </p>
    </div>
  );
}
