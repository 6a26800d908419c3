import { Form } from "react-router";
import { centsToDollarText } from "../../lib/money";
import { ErrorAlert } from "../admin/notice";
import { IntentButton } from "../intent-button";
import { card, fieldClass, primaryButton } from "../ui";

export interface PricesFormResult {
  error: string;
  askingPrice: string;
  minOffer: string;
}

/** The two numbers an owner may change on their own names: the asking price and the private minimum offer. */
export function OwnerPricesForm({
  askingPriceCents,
  minOfferCents,
  allowed,
  result,
}: {
  askingPriceCents: number;
  minOfferCents: number | null;
  allowed: boolean;
  result?: PricesFormResult;
}) {
  return (
    <section aria-labelledby="prices-heading" className={`${card} mt-10 max-w-xl`}>
      <h2 id="prices-heading" className="text-xl font-semibold">
        Prices
      </h2>
      {allowed ? (
        <>
          <p className="mt-1 text-sm text-slate-300">
            The minimum offer is never shown to buyers; leave it empty for no minimum.
          </p>
          <Form method="post" className="mt-4 flex flex-wrap items-end gap-3">
            <div>
              <label htmlFor="asking-price" className="text-sm text-slate-200">
                Asking price (USD)
              </label>
              <input
                key={`asking:${askingPriceCents}:${result?.askingPrice ?? ""}`}
                id="asking-price"
                name="askingPrice"
                type="number"
                step="0.01"
                min="0"
                required
                defaultValue={result?.askingPrice ?? centsToDollarText(askingPriceCents)}
                aria-invalid={result ? true : undefined}
                aria-describedby={result ? "prices-error" : undefined}
                className={`${fieldClass} mt-1 w-48`}
              />
            </div>
            <div>
              <label htmlFor="min-offer" className="text-sm text-slate-200">
                Minimum offer (USD)
              </label>
              <input
                key={`min:${minOfferCents ?? "none"}:${result?.minOffer ?? ""}`}
                id="min-offer"
                name="minOffer"
                type="number"
                step="0.01"
                min="0"
                defaultValue={result?.minOffer ?? (minOfferCents ? centsToDollarText(minOfferCents) : "")}
                aria-invalid={result ? true : undefined}
                aria-describedby={result ? "prices-error" : undefined}
                className={`${fieldClass} mt-1 w-48`}
              />
            </div>
            <IntentButton intent="prices" label="Save prices" busyLabel="Saving..." className={primaryButton} />
          </Form>
        </>
      ) : (
        <p className="mt-2 text-slate-300">Prices are set by the site&apos;s admin.</p>
      )}
      {result ? (
        <ErrorAlert id="prices-error" className="mt-4">
          {result.error}
        </ErrorAlert>
      ) : null}
    </section>
  );
}
