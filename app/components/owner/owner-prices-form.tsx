import { Form } from "react-router";
import { TEXT } from "../../lib/admin-forms";
import { centsToDollarText } from "../../lib/money";
import { ErrorAlert } from "../admin/notice";
import { IntentButton } from "../intent-button";
import { card, fieldClass, primaryButton } from "../ui";

export interface PricesFormResult {
  error: string;
  askingPrice: string;
  minOffer: string;
  buyNowPrice: string;
  autoAccept: string;
}

/**
 * The numbers an owner may change on their own names: the asking price, the private minimum offer and the
 * buy now price.
 */
export function OwnerPricesForm({
  askingPriceCents,
  minOfferCents,
  buyNowCents,
  autoAcceptCents,
  allowed,
  result,
}: {
  askingPriceCents: number;
  minOfferCents: number | null;
  buyNowCents: number | null;
  autoAcceptCents: number | null;
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
            The minimum offer is never shown to buyers; leave it empty for no minimum. {TEXT.buyNowHelp} It may not be
            below the minimum offer.
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
            <div>
              <label htmlFor="buy-now-price" className="text-sm text-slate-200">
                Buy now price
              </label>
              <input
                key={`buy-now:${buyNowCents ?? "none"}:${result?.buyNowPrice ?? ""}`}
                id="buy-now-price"
                name="buyNowPrice"
                type="number"
                step="0.01"
                min="0.01"
                defaultValue={result?.buyNowPrice ?? (buyNowCents ? centsToDollarText(buyNowCents) : "")}
                aria-invalid={result ? true : undefined}
                aria-describedby={result ? "prices-error" : undefined}
                className={`${fieldClass} mt-1 w-48`}
              />
            </div>
            <div>
              <label htmlFor="auto-accept" className="text-sm text-slate-200">
                Accept offers at or above
              </label>
              <input
                key={`auto-accept:${autoAcceptCents ?? "none"}:${result?.autoAccept ?? ""}`}
                id="auto-accept"
                name="autoAccept"
                type="number"
                step="0.01"
                min="0.01"
                defaultValue={result?.autoAccept ?? (autoAcceptCents ? centsToDollarText(autoAcceptCents) : "")}
                aria-invalid={result ? true : undefined}
                aria-describedby={result ? "prices-error" : undefined}
                className={`${fieldClass} mt-1 w-48`}
              />
              <p className="mt-1 text-sm text-slate-400">
                An offer at or above this is accepted at once, making a deal. Never shown to buyers; empty for none.
              </p>
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
