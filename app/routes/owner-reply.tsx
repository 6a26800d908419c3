import {
  data,
  redirect,
  type ShouldRevalidateFunctionArgs,
} from "react-router";
import { Conversation } from "../components/inquiry/conversation";
import { InquirySummary } from "../components/inquiry/inquiry-summary";
import { RepliedByEmailForm } from "../components/inquiry/replied-by-email";
import { ReplyForm, ReplyNoticeView } from "../components/inquiry/reply-form";
import { ErrorAlert } from "../components/admin/notice";
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
import {
  inquiryPagePath,
  verifyReplyLink,
} from "../server/refunds/reply-links.server";
import { env } from "../server/runtime/env.server";
import type { Route } from "./+types/owner-reply";

// The owner's side of an inquiry, at the signed link in the owner's emails (no sign-in): the buyer's
// details, the conversation, "Send reply", and "I have replied by email" while the reply is due. GET
// changes nothing (mail scanners prefetch links). Links sent before this page existed
// (?expires=&signature=, the old "I have replied" confirmation) lead here while their signature holds.

export async function loader({ params, request }: Route.LoaderArgs) {
  const search = new URL(request.url).searchParams;
  if (!search.has("sig") && search.has("signature")) {
    const legacy = verifyReplyLink(params.publicId, search);
    if (legacy.ok || legacy.reason === "expired")
      throw redirect(inquiryPagePath("owner", params.publicId));
  }
  const inquiry = await findSignedInquiry(
    "owner",
    params.publicId,
    search.get("sig"),
  );
  if (!inquiry) throw data({ siteName: env.SITE_NAME }, { status: 404 });
  const notice = replyNoticeOf(request);
  const buyer = {
    email: inquiry.email,
    phone: inquiry.phone,
    offer: inquiry.offer,
  };
  return {
    siteName: env.SITE_NAME,
    view: await inquiryPageView("owner", inquiry),
    buyer,
    notice: notice && REPLY_NOTICE_TEXT[notice],
  };
}

export async function action({ params, request }: Route.ActionArgs) {
  return replyAction("owner", params.publicId, request);
}

export default function OwnerInquiryPage({
  loaderData,
  actionData,
}: Route.ComponentProps) {
  const { view, buyer, notice } = loaderData;
  return (
    <PageShell>
      <section className={card}>
        <h1 className="text-3xl font-semibold break-words">{`Inquiry from ${view.buyerName} about ${view.domainName}`}</h1>
        {notice && !actionData && <ReplyNoticeView text={notice} />}
        {actionData?.intent === "replied-by-email" && (
          <ErrorAlert className="mt-6">{actionData.error}</ErrorAlert>
        )}
        <dl className="mt-6 grid gap-x-6 gap-y-3 sm:grid-cols-[max-content_1fr]">
          <dt className="text-sm text-slate-400">Buyer's email</dt>
          <dd className="break-words">{buyer.email}</dd>
          <dt className="text-sm text-slate-400">Phone</dt>
          <dd className="break-words">{buyer.phone || "not given"}</dd>
          <dt className="text-sm text-slate-400">Offer</dt>
          <dd className="break-words">{buyer.offer || "not given"}</dd>
        </dl>
        <InquirySummary view={view} />
        <Conversation view={view} />
        {(view.open || actionData?.intent === "reply") && (
          <ReplyForm
            key={view.entries.length}
            label="Your reply to the buyer"
            error={actionData?.intent === "reply" ? actionData.error : null}
            text={actionData?.text ?? ""}
          />
        )}
        {view.status === "waiting" && (
          <RepliedByEmailForm deadline={view.deadline} />
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
  // The address is the owner's key to the page: never cached, never sent to another site.
  const retryAfter = actionHeaders.get("Retry-After");
  return {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    ...(retryAfter ? { "Retry-After": retryAfter } : {}),
  };
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [
    {
      title: `Inquiry about ${loaderData?.view.domainName ?? ""} | ${loaderData?.siteName ?? ""}`,
    },
    { name: "robots", content: "noindex" },
  ];
}
