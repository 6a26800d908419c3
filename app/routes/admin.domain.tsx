import { data, Link, redirect } from "react-router";
import { awaitingReply } from "../server/admin/desk.server";
import { AdminHeader } from "../components/admin/admin-header";
import { FunnelSection } from "../components/admin/funnel-chart";
import { Notice } from "../components/admin/notice";
import { BackLink } from "../components/ui";
import { BuyNowPriceForm, MinimumOfferForm } from "../components/admin/price-forms";
import {
  buyNowBelowMinimumText,
  DomainOwnerSchema,
  fieldErrors,
  minimumAboveBuyNowText,
  parseBuyNowPrice,
  parseDollars,
} from "../lib/admin-forms";
import { domainPagePath } from "../lib/domain-name";
import { formatUsd } from "../lib/money";
import { domainFunnel, setMinimumOffer } from "../server/catalog/domain-funnel.server";
import { env } from "../server/runtime/env.server";
import { requireAdmin } from "../server/admin/session.server";
import { ListingForm } from "../components/admin/listing-form";
import { formatCategoryList } from "../lib/categories";
import { categoriesOfDomains } from "../server/catalog/categories.server";
import {
  findLiveDomainById,
  saveListing,
  setBuyNowPrice,
  updateDomainOwner,
} from "../server/admin/admin-domains.server";
import { DomainOwnerForm } from "../components/admin/domain-owner-form";
import type { Route } from "./+types/admin.domain";

const INVALID_AMOUNT = "Please enter a valid amount, or leave it empty for no minimum";
const NOTICES: Record<string, string> = {
  "min-offer-saved": "Minimum offer saved.",
  "min-offer-cleared": "Minimum offer removed.",
  "buy-now-saved": "Buy now price saved.",
  "buy-now-cleared": "Buy now price removed.",
  "listing-saved": "Listing saved.",
  "owner-saved": "Owner saved.",
};

function parseId(value: string | undefined): number | null {
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

export async function loader({ params, request }: Route.LoaderArgs) {
  const user = await requireAdmin(request);
  const id = parseId(params.id);
  const funnel = id === null ? null : await domainFunnel(id);
  if (!funnel) throw data(null, { status: 404 });
  const notice = new URL(request.url).searchParams.get("notice");
  const categories = (await categoriesOfDomains([funnel.domain.id])).get(funnel.domain.id) ?? [];
  const listing = {
    categories: formatCategoryList(categories.map((category) => category.name)),
    pitch: funnel.domain.pitch ?? "",
  };
  const row = await findLiveDomainById(funnel.domain.id);
  if (!row) throw data(null, { status: 404 });
  return {
    siteName: env.SITE_NAME,
    email: user.email,
    awaiting: (await awaitingReply()).count,
    funnel,
    listing,
    owner: { ownerEmail: row.owner_email, trackingId: row.tracking_id },
    notice: notice ? (NOTICES[notice] ?? null) : null,
  };
}

export async function action({ params, request }: Route.ActionArgs) {
  await requireAdmin(request);
  const id = parseId(params.id);
  const form = await request.formData();
  if (id === null) throw data(null, { status: 404 });
  if (form.get("intent") === "listing") {
    const result = await saveListing(id, {
      categories: String(form.get("categories") ?? ""),
      pitch: String(form.get("pitch") ?? ""),
    });
    if (result === "not-found") throw data(null, { status: 404 });
    if (result !== "saved")
      return data({ intent: "listing" as const, error: result.error, value: result.values }, { status: 400 });
    return redirect(`/admin/domains/${id}?notice=listing-saved`, 303);
  }
  if (form.get("intent") === "owner") {
    const values = {
      ownerEmail: String(form.get("ownerEmail") ?? ""),
      trackingId: String(form.get("trackingId") ?? ""),
    };
    const parsed = DomainOwnerSchema.safeParse(values);
    if (!parsed.success)
      return data({ intent: "owner" as const, fields: fieldErrors(parsed.error), values }, { status: 400 });
    if (!(await updateDomainOwner(id, parsed.data))) throw data(null, { status: 404 });
    return redirect(`/admin/domains/${id}?notice=owner-saved`, 303);
  }
  if (form.get("intent") === "buy-now") {
    const value = String(form.get("buyNowPrice") ?? "");
    const refuse = (error: string) => data({ intent: "buy-now" as const, error, value }, { status: 400 });
    const parsed = parseBuyNowPrice(value);
    if ("error" in parsed) return refuse(parsed.error);
    const saved = await setBuyNowPrice(id, parsed.cents);
    if (saved === "not-found") throw data(null, { status: 404 });
    if (saved !== "saved") return refuse(buyNowBelowMinimumText(saved.belowMinOfferCents));
    return redirect(`/admin/domains/${id}?notice=${parsed.cents ? "buy-now-saved" : "buy-now-cleared"}`, 303);
  }
  if (form.get("intent") !== "min-offer") throw data({ error: "Unknown action." }, { status: 400 });
  const input = String(form.get("minOffer") ?? "").trim();
  const cents = input === "" ? null : parseDollars(input);
  if (input !== "" && cents === null)
    return data({ intent: "min-offer" as const, error: INVALID_AMOUNT, value: input }, { status: 400 });
  const saved = await setMinimumOffer(id, cents === 0 ? null : cents);
  if (saved === "not-found") throw data(null, { status: 404 });
  if (saved !== "saved")
    return data(
      { intent: "min-offer" as const, error: minimumAboveBuyNowText(saved.aboveBuyNowCents), value: input },
      { status: 400 },
    );
  return redirect(`/admin/domains/${id}?notice=${cents ? "min-offer-saved" : "min-offer-cleared"}`, 303);
}

export default function AdminDomainPage({ loaderData, actionData }: Route.ComponentProps) {
  const { email, awaiting, funnel, notice } = loaderData;
  const { domain, totals, days } = funnel;
  return (
    <main className="mx-auto w-full max-w-6xl px-5 py-10">
      <AdminHeader email={email} title={domain.domain_name} awaiting={awaiting} />
      <div className="mt-4">
        <BackLink to="/admin">Back to the Admin Panel</BackLink>
      </div>
      {notice ? <Notice>{notice}</Notice> : null}
      <p className="mt-4 text-slate-300">
        Guiding price {formatUsd(domain.asking_price_cents)} ·{" "}
        <Link to={domainPagePath(domain.domain_name)} className="text-blue-300 underline underline-offset-4">
          Public page
        </Link>
      </p>
      <FunnelSection totals={totals} days={days} />
      <ListingForm
        categories={loaderData.listing.categories}
        pitch={loaderData.listing.pitch}
        {...(actionData?.intent === "listing" ? actionData : {})}
      />
      <DomainOwnerForm current={loaderData.owner} {...(actionData?.intent === "owner" ? actionData : {})} />
      <BuyNowPriceForm buyNowCents={domain.buy_now_cents} {...(actionData?.intent === "buy-now" ? actionData : {})} />
      <MinimumOfferForm
        minOfferCents={domain.min_offer_cents}
        {...(actionData?.intent === "min-offer" ? actionData : {})}
      />
    </main>
  );
}

export function meta({ loaderData }: Route.MetaArgs) {
  const name = loaderData?.funnel.domain.domain_name ?? "Domain";
  return [
    { title: `${name}: funnel | ${loaderData?.siteName ?? ""}` },
    { name: "robots", content: "noindex, nofollow" },
  ];
}
