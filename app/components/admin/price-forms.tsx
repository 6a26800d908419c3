import { Form } from "react-router";
import { TEXT } from "../../lib/admin-forms";
import { centsToDollarText } from "../../lib/money";
import { card, fieldClass, primaryButton } from "../ui";
import { ErrorAlert } from "./notice";

/** A domain's admin page: one price, its own form (intent), the refused text kept in the field. */
function PriceForm({
  id,
  heading,
  description,
  label,
  name,
  intent,
  button,
  cents,
  min,
  error,
  value,
}: {
  id: string;
  heading: string;
  description: string;
  label: string;
  name: string;
  intent: string;
  button: string;
  cents: number | null;
  min: string;
  error?: string;
  value?: string;
}) {
  return (
    <section aria-labelledby={`${id}-heading`} className={`${card} mt-10 max-w-xl`}>
      <h2 id={`${id}-heading`} className="text-xl font-semibold">
        {heading}
      </h2>
      <p className="mt-1 text-sm text-slate-300">{description}</p>
      <Form method="post" className="mt-4 flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor={id} className="text-sm text-slate-200">
            {label}
          </label>
          <input
            key={`${cents ?? "none"}:${value ?? ""}`}
            id={id}
            name={name}
            type="number"
            step="0.01"
            min={min}
            defaultValue={value ?? (cents ? centsToDollarText(cents) : "")}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            className={`${fieldClass} mt-1 w-48`}
          />
        </div>
        <button type="submit" name="intent" value={intent} className={primaryButton}>
          {button}
        </button>
      </Form>
      {error ? (
        <ErrorAlert id={`${id}-error`} className="mt-4">
          {error}
        </ErrorAlert>
      ) : null}
    </section>
  );
}

export function MinimumOfferForm(props: { minOfferCents: number | null; error?: string; value?: string }) {
  return (
    <PriceForm
      id="min-offer"
      heading="Minimum offer"
      description="Never shown to buyers. A buyer whose offer is below it is warned before paying that such offers are usually declined. Leave empty for no minimum."
      label="Minimum offer (USD)"
      name="minOffer"
      intent="min-offer"
      button="Save minimum"
      cents={props.minOfferCents}
      min="0"
      error={props.error}
      value={props.value}
    />
  );
}

export function BuyNowPriceForm(props: { buyNowCents: number | null; error?: string; value?: string }) {
  return (
    <PriceForm
      id="buy-now-price"
      heading="Buy now price"
      description={`${TEXT.buyNowHelp} It may not be below the minimum offer.`}
      label="Buy now price (USD)"
      name="buyNowPrice"
      intent="buy-now"
      button="Save buy now price"
      cents={props.buyNowCents}
      min="0.01"
      error={props.error}
      value={props.value}
    />
  );
}
