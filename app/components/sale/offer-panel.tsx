import { Form, useNavigation } from "react-router";
import { COUNTER_FIELD, OFFER_FIELD } from "../../lib/offer-amount";
import type { OffersView } from "../../server/sale/offer-view.server";
import { inputClass, primaryButton, secondaryButton } from "../ui";

/**
 * Offers and the deal on an inquiry page (issue 37): the open offer with "Accept offer", "Counter" and
 * "Decline" for the side it was made to, "Make an offer" for the buyer, and once agreed the deal with
 * the buyer's "Pay $Y". Plain forms: each posts and comes back to the page.
 */
export function OfferPanel({ offers, error, typed }: { offers: OffersView; error: string | null; typed: string }) {
  const busy = useNavigation().state === "submitting";
  const { open, deal } = offers;
  if (!open && !deal && !offers.canOffer && !offers.note && !error) return null;
  const from = (side: string) =>
    side === offers.side ? "Your offer" : side === "buyer" ? "The buyer's offer" : "The owner's offer";
  return (
    <section aria-labelledby="offers-heading" className="mt-8 rounded-lg border border-slate-700 p-4">
      <h2 id="offers-heading" className="text-xl font-semibold">
        {deal ? "Deal" : "Offers"}
      </h2>
      {error && (
        <p role="alert" className="mt-3 rounded-lg border border-red-700 bg-red-950/70 px-4 py-3 text-red-100">
          {error}
        </p>
      )}
      {error && typed && !offers.canOffer && !offers.canAnswer ? (
        // No form to put it back in (the name was sold, the inquiry closed): the amount typed is still shown.
        <p className="mt-2 text-slate-300">{`Not sent: ${typed}`}</p>
      ) : null}
      {offers.note ? <p className="mt-3 text-slate-200">{offers.note}</p> : null}
      {deal ? (
        <div className="mt-3 space-y-1 text-slate-200">
          {deal.status === "agreed" ? (
            <p className="text-lg font-medium text-white">{`Deal agreed: ${deal.price}`}</p>
          ) : (
            <p className="text-lg font-medium text-white">{`${deal.statusText} (${deal.price})`}</p>
          )}
          {deal.feeCredited ? <p>{`Inquiry fee credited: -${deal.feeCredited}`}</p> : null}
          {offers.side === "buyer" && deal.status === "agreed" ? (
            <Form method="post" action={deal.path} reloadDocument className="pt-3">
              <button type="submit" name="intent" value="pay" className={primaryButton}>
                {`Pay ${deal.amountDue}`}
              </button>
            </Form>
          ) : null}
          <p className="pt-2">
            <a href={deal.path} className="text-blue-300 underline underline-offset-4">
              Open the deal's page
            </a>
          </p>
        </div>
      ) : null}
      {open ? (
        <p data-open-offer className="mt-3 text-slate-200">
          {`${from(open.from)}: ${open.amount}, open until ${open.until}`}
        </p>
      ) : null}
      {offers.canAnswer ? (
        <Form method="post" className="mt-4 space-y-3">
          <div className="flex flex-wrap gap-3">
            <button type="submit" name="intent" value="accept-offer" className={primaryButton} disabled={busy}>
              Accept offer
            </button>
            <button type="submit" name="intent" value="decline-offer" className={secondaryButton} disabled={busy}>
              Decline
            </button>
          </div>
          <div className="flex flex-wrap items-end gap-3">
            <label className="block">
              <span className="text-sm font-medium">Counter-offer (USD)</span>
              <input name={COUNTER_FIELD} inputMode="decimal" defaultValue={typed} className={inputClass} />
            </label>
            <button type="submit" name="intent" value="counter-offer" className={secondaryButton} disabled={busy}>
              Counter
            </button>
          </div>
        </Form>
      ) : null}
      {offers.canOffer ? (
        <Form method="post" className="mt-4">
          <h3 className="font-medium">Make an offer</h3>
          <div className="mt-2 flex flex-wrap items-end gap-3">
            <label className="block">
              <span className="text-sm font-medium">Your offer (USD)</span>
              <input name={OFFER_FIELD} inputMode="decimal" required defaultValue={typed} className={inputClass} />
            </label>
            <button type="submit" name="intent" value="send-offer" className={primaryButton} disabled={busy}>
              Send offer
            </button>
          </div>
        </Form>
      ) : null}
    </section>
  );
}
