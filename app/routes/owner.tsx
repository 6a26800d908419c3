import { data, redirect } from "react-router";
import { z } from "zod";
import { Notice } from "../components/admin/notice";
import { OwnerDeals } from "../components/owner/owner-deals";
import { OwnerDomains } from "../components/owner/owner-domains";
import { OwnerHeader } from "../components/owner/owner-header";
import { OwnerInquiries } from "../components/owner/owner-inquiries";
import { OwnerSignIn, OwnerSignInOff } from "../components/owner/owner-sign-in";
import { PortfolioInsightsView } from "../components/insights/portfolio-insights";
import { MESSAGE_FIELD } from "../lib/inquiry-message";
import { OWNER_LINK_ERRORS, OWNER_NOTICES, type OwnerLinkError } from "../lib/owner-forms";
import { clientIp } from "../server/http/request-context.server";
import { forgetPendingCode, readPending, requestCode, signInWithCode } from "../server/owners/owner-auth.server";
import {
  listOwnerDeals,
  listOwnerDomains,
  listOwnerInquiries,
  markAnsweredFromDesk,
  answerOfferFromDesk,
  replyFromDesk,
} from "../server/owners/owner-desk.server";
import { destroyOwnerSession, getOwner, requireOwner } from "../server/owners/owner-session.server";
import { isOwnerSignInOn } from "../server/owners/owner-settings.server";
import { portfolioInsights } from "../server/insights/portfolio-insights.server";
import { env } from "../server/runtime/env.server";
import type { Route } from "./+types/owner";

const DeskAction = z.object({
  intent: z.enum(["reply", "answered", "accept-offer", "decline-offer", "counter-offer"]),
  id: z.coerce.number().int().positive(),
  [MESSAGE_FIELD]: z.string().optional(),
  counterAmount: z.string().optional(),
});

export async function loader({ request }: Route.LoaderArgs) {
  const siteName = env.SITE_NAME;
  if (!(await isOwnerSignInOn())) return data({ siteName, state: "off" as const }, { status: 404 });
  const owner = await getOwner(request);
  const params = new URL(request.url).searchParams;
  if (!owner) {
    const pending = await readPending(request);
    const errorKey = params.get("error");
    const error = errorKey && errorKey in OWNER_LINK_ERRORS ? OWNER_LINK_ERRORS[errorKey as OwnerLinkError] : null;
    return { siteName, state: "signed-out" as const, codeFor: pending?.email ?? null, error };
  }
  const notice = params.get("notice");
  // Four independent reads: at once, as the admin's pages read theirs.
  const [domains, deals, inquiries, insights] = await Promise.all([
    listOwnerDomains(owner.email),
    listOwnerDeals(owner.email),
    listOwnerInquiries(owner.email),
    portfolioInsights({ ownerEmail: owner.email }),
  ]);
  return {
    siteName,
    state: "desk" as const,
    email: owner.email,
    domains,
    deals,
    inquiries,
    insights,
    notice: notice ? (OWNER_NOTICES[notice] ?? null) : null,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  if (!(await isOwnerSignInOn())) throw data(null, { status: 404 });
  const form = await request.clone().formData();
  const intent = String(form.get("intent") ?? "");
  if (intent === "send-code") return requestCode(request, clientIp(context));
  if (intent === "sign-in") return signInWithCode(request, clientIp(context));
  if (intent === "start-over") return forgetPendingCode(request);
  if (intent === "sign-out")
    return redirect("/owner", { status: 303, headers: { "Set-Cookie": await destroyOwnerSession(request) } });
  const owner = await requireOwner(request);
  const parsed = DeskAction.safeParse(Object.fromEntries(form));
  if (!parsed.success) throw data(null, { status: 400 });
  const { id } = parsed.data;
  if (parsed.data.intent === "answered") {
    const changed = await markAnsweredFromDesk(owner.email, id);
    if (changed === null) throw data(null, { status: 404 });
    return redirect(`/owner?notice=${changed ? "answered" : "answer-refused"}`, 303);
  }
  const offerIntent = parsed.data.intent;
  if (offerIntent === "accept-offer" || offerIntent === "decline-offer" || offerIntent === "counter-offer") {
    const answered = await answerOfferFromDesk(owner.email, id, offerIntent, parsed.data.counterAmount);
    if (answered === null) throw data(null, { status: 404 });
    if (answered.ok) return redirect(`/owner?notice=${offerIntent}`, 303);
    return data(
      { step: null, error: null, email: "", offer: { id, error: answered.error, text: answered.text } },
      { status: answered.status },
    );
  }
  const replied = await replyFromDesk(owner.email, id, parsed.data[MESSAGE_FIELD]);
  if (replied === null) throw data(null, { status: 404 });
  if (replied.ok) return redirect("/owner?notice=replied", 303);
  const headers = replied.retryAfterSeconds ? { "Retry-After": String(replied.retryAfterSeconds) } : undefined;
  return data(
    { step: null, error: null, email: "", reply: { id, error: replied.error, text: replied.text } },
    { status: replied.status, headers },
  );
}

export default function OwnerPage({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.state === "off") return <OwnerSignInOff />;
  const result = actionData && "step" in actionData ? actionData : undefined;
  if (loaderData.state === "signed-out") {
    const codeFor = result?.step === "email" ? null : loaderData.codeFor;
    return <OwnerSignIn codeFor={codeFor} error={result?.error ?? loaderData.error} email={result?.email ?? ""} />;
  }
  const { email, domains, deals, inquiries, insights, notice } = loaderData;
  const refusal = actionData && "reply" in actionData ? actionData.reply : null;
  const offerRefusal = actionData && "offer" in actionData ? actionData.offer : null;
  return (
    <main className="mx-auto w-full max-w-6xl px-5 py-10">
      <OwnerHeader email={email} />
      {notice && !refusal && !offerRefusal ? <Notice>{notice}</Notice> : null}
      <OwnerDomains domains={domains} />
      <OwnerDeals deals={deals.rows} total={deals.total} />
      <OwnerInquiries
        inquiries={inquiries.rows}
        total={inquiries.total}
        refusal={refusal ?? null}
        offerRefusal={offerRefusal}
      />
      <p className="mt-10 text-slate-300">Insights into your names. Dates are UTC.</p>
      <PortfolioInsightsView insights={insights} nameHref={(id) => `/owner/domains/${id}`} />
    </main>
  );
}

export function headers({ actionHeaders, loaderHeaders }: Route.HeadersArgs) {
  // A refused code's Retry-After comes from the action.
  return actionHeaders.has("Retry-After") ? actionHeaders : loaderHeaders;
}

export function meta({ loaderData }: Route.MetaArgs) {
  const title = loaderData?.state === "desk" ? "Your desk" : "Owner sign-in";
  return [{ title: `${title} | ${loaderData?.siteName ?? ""}` }, { name: "robots", content: "noindex, nofollow" }];
}
