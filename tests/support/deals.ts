// A name bought now and paid over HTTP, as a browser without JavaScript posts the buy now form and the
// embedded test provider's checkout (card 4242), for browser tests that need a deal to look at.
import type { AppServer } from "./app-server";
import { insertDomain, uniqueDomainName } from "./data";
import { postForm, request } from "./http";

export interface PaidDeal {
  name: string;
  short: string;
  domainId: number;
  /** The buyer's signed deal page (path and query). */
  buyerPage: string;
}

/** A new name of `ownerEmail` with a buy now price of `buyNowCents`, bought and paid. */
export async function paidBuyNow(
  app: AppServer,
  options: { ownerEmail: string; buyNowCents: number; prefix?: string },
): Promise<PaidDeal> {
  const name = uniqueDomainName(options.prefix ?? "deal");
  const short = name.replace(/\.com$/, "");
  const domainId = insertDomain(app.db(), {
    name,
    priceCents: options.buyNowCents + 100_000,
    ownerEmail: options.ownerEmail,
  });
  app.db().prepare("UPDATE domains SET buy_now_cents = ? WHERE id = ?").run(options.buyNowCents, domainId);
  const buyer = { name: "Deal Buyer", email: `buyer-${domainId}@buyer.example` };
  const started = await postForm(app, `/buy/${short}`, buyer);
  const checkout = started.headers.get("location");
  if (started.status !== 303 || !checkout) throw new Error(`buy now answered ${started.status}`);
  const paid = await postForm(app, checkout, { card_number: "4242424242424242", expiry: "12/40", cvc: "123" });
  const back = paid.headers.get("location");
  if (paid.status !== 303 || !back) throw new Error(`checkout answered ${paid.status}`);
  const returned = await request(app, back);
  const buyerPage = returned.headers.get("location");
  if (returned.status !== 303 || !buyerPage) throw new Error(`the return answered ${returned.status}`);
  const url = new URL(buyerPage, app.url);
  return { name, short, domainId, buyerPage: url.pathname + url.search };
}
