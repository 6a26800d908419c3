import { InquirySummary } from "../components/inquiry/inquiry-summary";
import { revalidateAfterConflict, signedPageHeaders } from "../components/inquiry/inquiry-page-route";
import { ConversationWithReply, ReplyNoticeView } from "../components/inquiry/reply-form";
import { card, PageShell } from "../components/ui";
import { OfferPanel } from "../components/sale/offer-panel";
import { offersView } from "../server/sale/offer-view.server";
import { inquiryPageView } from "../server/inquiries/inquiry-page.server";
import { replyAction, signedInquiryPage } from "../server/inquiries/reply-action.server";
import { feeChoiceView } from "../server/inquiries/fee-choice.server";
import { FeeChoice } from "../components/inquiry/fee-choice";
import type { Route } from "./+types/inquiry";

// The buyer's inquiry page, at the signed link from the success step and the receipt email. A wrong
// id or signature, or an inquiry that was never paid, is the site's plain 404: no hint of what exists.

export async function loader({ params, request }: Route.LoaderArgs) {
  const { inquiry, notice, siteName, noticeText } = await signedInquiryPage("buyer", params.publicId, request);
  const feeChoice = await feeChoiceView(inquiry, notice === "credited");
  const view = await inquiryPageView("buyer", inquiry);
  return {
    siteName,
    view,
    offers: await offersView(inquiry, "buyer", view.open),
    feeChoice,
    notice: noticeText,
  };
}

export async function action({ params, request }: Route.ActionArgs) {
  return replyAction("buyer", params.publicId, request);
}

export default function InquiryPage({ loaderData, actionData }: Route.ComponentProps) {
  const { view, feeChoice, notice, offers } = loaderData;
  return (
    <PageShell>
      <section className={card}>
        <h1 className="text-3xl font-semibold break-words">{`Your inquiry for ${view.domainName}`}</h1>
        {notice && !actionData && <ReplyNoticeView text={notice} />}
        <InquirySummary view={view} />
        <OfferPanel
          offers={offers}
          error={actionData?.intent === "offer" ? actionData.error : null}
          typed={actionData?.intent === "offer" ? actionData.text : ""}
        />
        <FeeChoice choice={feeChoice} error={actionData?.intent === "fee-choice" ? actionData.error : null} />
        <ConversationWithReply view={view} actionData={actionData} replyLabel="Your reply to the owner" />
      </section>
    </PageShell>
  );
}

export const shouldRevalidate = revalidateAfterConflict;

export const headers = signedPageHeaders;

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: `Your inquiry | ${loaderData?.siteName ?? ""}` }, { name: "robots", content: "noindex" }];
}
