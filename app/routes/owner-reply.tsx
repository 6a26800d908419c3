import { redirect } from "react-router";
import { InquirySummary } from "../components/inquiry/inquiry-summary";
import { revalidateAfterConflict, signedPageHeaders } from "../components/inquiry/inquiry-page-route";
import { RepliedByEmailForm } from "../components/inquiry/replied-by-email";
import { ConversationWithReply, ReplyNoticeView } from "../components/inquiry/reply-form";
import { ErrorAlert } from "../components/admin/notice";
import { card, PageShell } from "../components/ui";
import { OfferPanel } from "../components/sale/offer-panel";
import { offersView } from "../server/sale/offer-view.server";
import { inquiryPageView } from "../server/inquiries/inquiry-page.server";
import { replyAction, signedInquiryPage } from "../server/inquiries/reply-action.server";
import { inquiryPagePath, verifyReplyLink } from "../server/inquiries/signed-links.server";
import type { Route } from "./+types/owner-reply";

// The owner's side of an inquiry, at the signed link in the owner's emails (no sign-in): the buyer's
// details, the conversation, "Send reply", and "I have replied by email" while the reply is due. GET
// changes nothing (mail scanners prefetch links). Links sent before this page existed
// (?expires=&signature=, the old "I have replied" confirmation) lead here while their signature holds.

export async function loader({ params, request }: Route.LoaderArgs) {
  const search = new URL(request.url).searchParams;
  if (!search.has("sig") && search.has("signature")) {
    const legacy = verifyReplyLink(params.publicId, search);
    if (legacy.ok || legacy.reason === "expired") throw redirect(inquiryPagePath("owner", params.publicId));
  }
  const { inquiry, siteName, noticeText } = await signedInquiryPage("owner", params.publicId, request);
  const buyer = {
    email: inquiry.email,
    phone: inquiry.phone,
    offer: inquiry.offer,
  };
  const view = await inquiryPageView("owner", inquiry);
  return {
    siteName,
    view,
    offers: await offersView(inquiry, "owner", view.open),
    buyer,
    notice: noticeText,
  };
}

export async function action({ params, request }: Route.ActionArgs) {
  return replyAction("owner", params.publicId, request);
}

export default function OwnerInquiryPage({ loaderData, actionData }: Route.ComponentProps) {
  const { view, buyer, notice, offers } = loaderData;
  return (
    <PageShell>
      <section className={card}>
        <h1 className="text-3xl font-semibold break-words">{`Inquiry from ${view.buyerName} about ${view.domainName}`}</h1>
        {notice && !actionData && <ReplyNoticeView text={notice} />}
        {actionData?.intent === "replied-by-email" && <ErrorAlert className="mt-6">{actionData.error}</ErrorAlert>}
        <dl className="mt-6 grid gap-x-6 gap-y-3 sm:grid-cols-[max-content_1fr]">
          <dt className="text-sm text-slate-400">Buyer's email</dt>
          <dd className="break-words">{buyer.email}</dd>
          <dt className="text-sm text-slate-400">Phone</dt>
          <dd className="break-words">{buyer.phone || "not given"}</dd>
          <dt className="text-sm text-slate-400">Offer</dt>
          <dd className="break-words">{buyer.offer || "not given"}</dd>
        </dl>
        <InquirySummary view={view} />
        <OfferPanel
          offers={offers}
          error={actionData?.intent === "offer" ? actionData.error : null}
          typed={actionData?.intent === "offer" ? actionData.text : ""}
        />
        <ConversationWithReply view={view} actionData={actionData} replyLabel="Your reply to the buyer" />
        {view.status === "waiting" && <RepliedByEmailForm deadline={view.deadline} />}
      </section>
    </PageShell>
  );
}

export const shouldRevalidate = revalidateAfterConflict;

export const headers = signedPageHeaders;

export function meta({ loaderData }: Route.MetaArgs) {
  return [
    {
      title: `Inquiry about ${loaderData?.view.domainName ?? ""} | ${loaderData?.siteName ?? ""}`,
    },
    { name: "robots", content: "noindex" },
  ];
}
