import { useState } from "react";
import { PAYMENT_TEXTS } from "../../lib/inquiry";
import { inputClass, primaryButton } from "../ui";
import { postJson, useConfirmInquiry } from "./payment-client";

/** The test provider's stand-in for Stripe's Payment Element: an inline card form, no real charge. */
export function TestCardForm(props: { clientSecret: string; fee: string; domainName: string; returnPath: string }) {
  const confirmInquiry = useConfirmInquiry(props.domainName, props.returnPath);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    const result = await postJson<{ status: string; payment_intent_id: string }>("/api/test-payments/confirm", {
      client_secret: props.clientSecret,
      card_number: String(form.get("card_number") ?? ""),
      expiry: String(form.get("expiry") ?? ""),
      cvc: String(form.get("cvc") ?? ""),
    });
    if (!result.ok) {
      setBusy(false);
      return setError(`Payment failed: ${result.error ?? PAYMENT_TEXTS.cardErrorFallback}`);
    }
    const confirmError = await confirmInquiry(result.data.payment_intent_id);
    if (confirmError) {
      setBusy(false);
      setError(confirmError);
    }
  }

  return (
    <form onSubmit={handleSubmit} noValidate className="mt-6 space-y-4">
      <TestCardFields />
      <div
        role="alert"
        className={error ? "rounded-lg border border-red-500/50 bg-red-950/60 px-4 py-3 text-red-100" : undefined}
      >
        {error}
      </div>
      <button type="submit" className={`${primaryButton} w-full text-lg`} disabled={busy}>
        {busy ? PAYMENT_TEXTS.processing : `Pay ${props.fee}`}
      </button>
    </form>
  );
}

/** Card number, Expiry (MM/YY) and CVC: shared with the test checkout page. */
export function TestCardFields() {
  return (
    <>
      <div>
        <label htmlFor="card-number" className="block text-sm font-medium text-slate-200">
          Card number
        </label>
        <input
          id="card-number"
          name="card_number"
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="4242 4242 4242 4242"
          maxLength={23}
          className={inputClass}
        />
      </div>
      <div className="grid grid-cols-2 gap-4">
        <div>
          <label htmlFor="card-expiry" className="block text-sm font-medium text-slate-200">
            Expiry
          </label>
          <input
            id="card-expiry"
            name="expiry"
            inputMode="numeric"
            autoComplete="cc-exp"
            placeholder="MM/YY"
            maxLength={7}
            className={inputClass}
          />
        </div>
        <div>
          <label htmlFor="card-cvc" className="block text-sm font-medium text-slate-200">
            CVC
          </label>
          <input
            id="card-cvc"
            name="cvc"
            inputMode="numeric"
            autoComplete="cc-csc"
            placeholder="123"
            maxLength={4}
            className={inputClass}
          />
        </div>
      </div>
      <p className="text-sm text-slate-300">
        Use 4242 4242 4242 4242 with any future expiry and any CVC. 4000 0000 0000 0002 is declined.
      </p>
    </>
  );
}
