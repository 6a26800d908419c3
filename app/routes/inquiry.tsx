import { data, type ShouldRevalidateFunctionArgs } from "react-router";
import { Conversation } from "../components/inquiry/conversation";
import { InquirySummary } from "../components/inquiry/inquiry-summary";
import { ReplyForm, ReplyNoticeView } from "../components/inquiry/reply-form";
import { card, PageShell } from "../components/ui";
import {
  findSignedInquiry,
  inquiryPageView,
} from "../server/conversation/inquiry-page.server";
import {
  REPLY_NOTICE_TEXT,
  replyAction,
  replyNoticeOf,
} from "../server/conversation/reply-action.server";
import { env } from "../server/runtime/env.server";
import { feeChoiceView } from "../server/refunds/fee-choice.server";
import { FeeChoice } from "../components/inquiry/fee-choice";
import type { Route } from "./+types/inquiry";

// The buyer's inquiry page, at the signed link from the success step and the receipt email. A wrong
// id or signature, or an inquiry that was never paid, is the site's plain 404: no hint of what exists.

export async function loader({ params, request }: Route.LoaderArgs) {
  const sig = new URL(request.url).searchParams.get("sig");
  const inquiry = await findSignedInquiry("buyer", params.publicId, sig);
  if (!inquiry) throw data({ siteName: env.SITE_NAME }, { status: 404 });
  const notice = replyNoticeOf(request);
  const feeChoice = await feeChoiceView(inquiry, notice === "credited");
  return {
    siteName: env.SITE_NAME,
    view: await inquiryPageView("buyer", inquiry),
    feeChoice,
    notice: notice && REPLY_NOTICE_TEXT[notice],
  };
}

export async function action({ params, request }: Route.ActionArgs) {
  return replyAction("buyer", params.publicId, request);
}

export default function InquiryPage({
  loaderData,
  actionData,
}: Route.ComponentProps) {
  const { view, feeChoice, notice } = loaderData;
  return (
    <PageShell>
      <section className={card}>
        <h1 className="text-3xl font-semibold break-words">{`Your inquiry for ${view.domainName}`}</h1>
        {notice && !actionData && <ReplyNoticeView text={notice} />}
        <InquirySummary view={view} />
        <FeeChoice
          choice={feeChoice}
          error={actionData?.intent === "fee-choice" ? actionData.error : null}
        />
        <Conversation view={view} />
        {(view.open || actionData?.intent === "reply") && (
          <ReplyForm
            key={view.entries.length}
            label="Your reply to the owner"
            error={actionData?.intent === "reply" ? actionData.error : null}
            text={actionData?.text ?? ""}
          />
        )}
      </section>
    </PageShell>
  );
}

// A refusal with 409 means the inquiry changed meanwhile (closed, answered): show it as it is now.
export function shouldRevalidate({
  actionStatus,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  return actionStatus === 409 || defaultShouldRevalidate;
}

export function headers({ actionHeaders }: Route.HeadersArgs) {
  // The address is the buyer's key to the page: never cached, never sent to another site.
  const retryAfter = actionHeaders.get("Retry-After");
  return {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    ...(retryAfter ? { "Retry-After": retryAfter } : {}),
  };
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [
    { title: `Your inquiry | ${loaderData?.siteName ?? ""}` },
    { name: "robots", content: "noindex" },
  ];
}
