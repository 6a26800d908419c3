import { data, Link, redirect } from "react-router";
import { FunnelSection } from "../components/admin/funnel-chart";
import { Notice } from "../components/admin/notice";
import { OwnerHeader } from "../components/owner/owner-header";
import { OwnerPricesForm, type PricesFormResult } from "../components/owner/owner-prices-form";
import { BackLink } from "../components/ui";
import { buyNowBelowMinimumText, parseBuyNowPrice, parseDollars, parsePrice, TEXT } from "../lib/admin-forms";
import { domainPagePath } from "../lib/domain-name";
import { formatUsd } from "../lib/money";
import { OWNER_NOTICES } from "../lib/owner-forms";
import { ownerDomainFunnel, ownsDomain, updateOwnerPrices } from "../server/owners/owner-desk.server";
import { requireOwner } from "../server/owners/owner-session.server";
import { mayOwnersChangePrices } from "../server/owners/owner-settings.server";
import { env } from "../server/runtime/env.server";
import type { Route } from "./+types/owner.domain";

const INVALID_MIN_OFFER = "Please enter a valid minimum offer, or leave it empty for no minimum";
const PRICES_OFF = "The admin has turned off price changes by owners.";

function parseId(value: string | undefined): number | null {
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

export async function loader({ params, request }: Route.LoaderArgs) {
  const owner = await requireOwner(request);
  const id = parseId(params.id);
  const funnel = id === null ? null : await ownerDomainFunnel(owner.email, id);
  if (!funnel) throw data(null, { status: 404 });
  const notice = new URL(request.url).searchParams.get("notice");
  return {
    siteName: env.SITE_NAME,
    email: owner.email,
    funnel,
    pricesAllowed: await mayOwnersChangePrices(),
    notice: notice ? (OWNER_NOTICES[notice] ?? null) : null,
  };
}

export async function action({ params, request }: Route.ActionArgs) {
  const owner = await requireOwner(request);
  const id = parseId(params.id);
  if (id === null || !(await ownsDomain(owner.email, id))) throw data(null, { status: 404 });
  const form = await request.formData();
  if (form.get("intent") !== "prices") throw data(null, { status: 400 });
  const askingPrice = String(form.get("askingPrice") ?? "").trim();
  const minOffer = String(form.get("minOffer") ?? "").trim();
  const buyNowPrice = String(form.get("buyNowPrice") ?? "");
  const autoAccept = String(form.get("autoAccept") ?? "");
  const refuse = (error: string, status = 400) =>
    data<PricesFormResult>({ error, askingPrice, minOffer, buyNowPrice, autoAccept }, { status });
  if (!(await mayOwnersChangePrices())) return refuse(PRICES_OFF, 403);
  const askingPriceCents = parsePrice(askingPrice);
  if (askingPriceCents === null) return refuse(TEXT.invalidPrice);
  const minOfferCents = minOffer === "" ? null : parseDollars(minOffer);
  if (minOffer !== "" && minOfferCents === null) return refuse(INVALID_MIN_OFFER);
  const buyNow = parseBuyNowPrice(buyNowPrice);
  if ("error" in buyNow) return refuse(buyNow.error);
  if (buyNow.cents !== null && minOfferCents && buyNow.cents < minOfferCents)
    return refuse(buyNowBelowMinimumText(minOfferCents));
  const accept = parseBuyNowPrice(autoAccept);
  if ("error" in accept) return refuse(TEXT.autoAcceptInvalid);
  const saved = await updateOwnerPrices(owner.email, id, {
    autoAcceptCents: accept.cents,
    askingPriceCents,
    minOfferCents: minOfferCents === 0 ? null : minOfferCents,
    buyNowCents: buyNow.cents,
  });
  if (!saved) throw data(null, { status: 404 });
  return redirect(`/owner/domains/${id}?notice=price-saved`, 303);
}

export default function OwnerDomainPage({ loaderData, actionData }: Route.ComponentProps) {
  const { email, funnel, pricesAllowed, notice } = loaderData;
  const { domain, totals, days } = funnel;
  return (
    <main className="mx-auto w-full max-w-6xl px-5 py-10">
      <OwnerHeader email={email} title={domain.domain_name} />
      <div className="mt-4">
        <BackLink to="/owner">Back to your desk</BackLink>
      </div>
      {notice ? <Notice>{notice}</Notice> : null}
      <p className="mt-4 text-slate-300">
        Asking price {formatUsd(domain.asking_price_cents)} ·{" "}
        <Link to={domainPagePath(domain.domain_name)} className="text-blue-300 underline underline-offset-4">
          Public page
        </Link>
      </p>
      <FunnelSection totals={totals} days={days} />
      <OwnerPricesForm
        askingPriceCents={domain.asking_price_cents}
        minOfferCents={domain.min_offer_cents}
        buyNowCents={domain.buy_now_cents}
        autoAcceptCents={domain.auto_accept_cents}
        allowed={pricesAllowed}
        result={actionData}
      />
    </main>
  );
}

export function meta({ loaderData }: Route.MetaArgs) {
  const name = loaderData?.funnel.domain.domain_name ?? "Domain";
  return [{ title: `${name} | ${loaderData?.siteName ?? ""}` }, { name: "robots", content: "noindex, nofollow" }];
}
