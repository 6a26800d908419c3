// Loaded only when Stripe is the provider and JavaScript runs. `@stripe/stripe-js/pure` loads Stripe.js
// from js.stripe.com only when loadStripe is called, never on import.
import { Elements, PaymentElement, useElements, useStripe } from "@stripe/react-stripe-js";
import type { Stripe } from "@stripe/stripe-js";
import { loadStripe } from "@stripe/stripe-js/pure";
import { useEffect, useState } from "react";
import { PAYMENT_TEXTS } from "../../lib/inquiry";
import { primaryButton } from "../ui";
import { useConfirmInquiry } from "./payment-client";

const STRIPE_LOAD_TIMEOUT_MS = 15_000;

export default function StripePaymentForm(props: {
  clientSecret: string;
  publishableKey: string | null;
  fee: string;
  domainName: string;
  returnPath: string;
  onUnavailable: () => void;
}) {
  const [stripe, setStripe] = useState<Stripe | null>(null);
  const { publishableKey, onUnavailable } = props;

  useEffect(() => {
    if (!publishableKey) return onUnavailable();
    let active = true;
    const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), STRIPE_LOAD_TIMEOUT_MS));
    Promise.race([loadStripe(publishableKey), timeout])
      .then((loaded) => {
        if (!active) return;
        if (loaded) setStripe(loaded);
        else onUnavailable();
      })
      .catch(() => active && onUnavailable());
    return () => {
      active = false;
    };
  }, [publishableKey, onUnavailable]);

  if (!stripe) return <p className="mt-6 text-slate-300">{PAYMENT_TEXTS.loading}</p>;
  return (
    <Elements stripe={stripe} options={{ clientSecret: props.clientSecret, appearance: { theme: "night" } }}>
      <StripeForm {...props} />
    </Elements>
  );
}

function StripeForm(props: { fee: string; domainName: string; returnPath: string; onUnavailable: () => void }) {
  const stripe = useStripe();
  const elements = useElements();
  const confirmInquiry = useConfirmInquiry(props.domainName, props.returnPath);
  const [ready, setReady] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!stripe || !elements) return;
    setBusy(true);
    setError(null);
    const result = await stripe.confirmPayment({
      elements,
      confirmParams: { return_url: `${window.location.origin}${props.returnPath}` },
      redirect: "if_required",
    });
    if (result.error) {
      setBusy(false);
      return setError(`Payment failed: ${result.error.message ?? PAYMENT_TEXTS.cardErrorFallback}`);
    }
    const confirmError = await confirmInquiry(result.paymentIntent.id);
    if (confirmError) {
      setBusy(false);
      setError(confirmError);
    }
  }

  return (
    <form onSubmit={handleSubmit} className="mt-6 space-y-4">
      {!ready && <p className="text-slate-300">{PAYMENT_TEXTS.loading}</p>}
      <PaymentElement onReady={() => setReady(true)} onLoadError={() => props.onUnavailable()} />
      <div
        role="alert"
        className={error ? "rounded-lg border border-red-500/50 bg-red-950/60 px-4 py-3 text-red-100" : undefined}
      >
        {error}
      </div>
      <button type="submit" className={`${primaryButton} w-full text-lg`} disabled={!stripe || !ready || busy}>
        {busy ? PAYMENT_TEXTS.processing : `Pay ${props.fee}`}
      </button>
    </form>
  );
}
