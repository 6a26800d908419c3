// The form posts of the inquiry page, for either side (routes/inquiry.tsx and routes/owner-reply.tsx):
// "Send reply" (intent "reply") on both, "I have replied by email" (intent "replied-by-email") for the
// owner. Success redirects back to the page (Post/Redirect/Get); a refusal keeps what was typed.
import { data, redirect } from "react-router";
import { MESSAGE_FIELD, parseMessage } from "../../lib/inquiry-message";
import { inquiryPagePath, type InquirySide } from "./signed-links.server";
import { markInquiryAnswered } from "./refund-promise.server";
import { env } from "../runtime/env.server";
import { findSignedInquiry } from "./inquiry-page.server";
import { postInquiryMessage } from "./messages.server";
import { refundChosenInquiry } from "../refunds/auto-refund.server";
import { chooseCredit, chooseRefund } from "./fee-choice.server";
import { isOfferIntent, OFFER_NOTICE_TEXT, offerAction, type OfferNotice } from "../sale/offer-action.server";

export type ReplyNotice = "sent" | "marked" | "refunding" | "credited" | OfferNotice;
export const REPLY_NOTICE_TEXT: Record<ReplyNotice, string> = {
  sent: "Your reply was sent.",
  marked: "Thank you: the inquiry is marked as answered by email.",
  refunding: "Your fee is being refunded.",
  credited: "Your credit is ready.",
  ...OFFER_NOTICE_TEXT,
};

export function replyNoticeOf(request: Request): ReplyNotice | null {
  const notice = new URL(request.url).searchParams.get("notice");
  return notice && notice in REPLY_NOTICE_TEXT ? (notice as ReplyNotice) : null;
}

/** The inquiry a page's signed address names, and the notice to show after a redirect; else the site's plain 404. */
export async function signedInquiryPage(side: InquirySide, publicId: string, request: Request) {
  const sig = new URL(request.url).searchParams.get("sig");
  const inquiry = await findSignedInquiry(side, publicId, sig);
  if (!inquiry) throw data({ siteName: env.SITE_NAME }, { status: 404 });
  const notice = replyNoticeOf(request);
  return {
    inquiry,
    notice,
    siteName: env.SITE_NAME,
    noticeText: notice && REPLY_NOTICE_TEXT[notice],
  };
}

export interface ReplyActionError {
  intent: "reply" | "replied-by-email" | "fee-choice" | "offer";
  error: string;
  text: string;
}

const MARK_REFUSED: Record<string, string> = {
  already_answered: "This inquiry is already answered.",
  refunded: "This inquiry was refunded, so there is no reply to confirm.",
  expired: "The reply deadline has passed, so a reply can no longer be confirmed.",
};

export async function replyAction(side: InquirySide, publicId: string, request: Request) {
  const sig = new URL(request.url).searchParams.get("sig");
  const inquiry = await findSignedInquiry(side, publicId, sig);
  if (!inquiry) throw data(null, { status: 404 });
  const form = await request.formData();
  const back = (notice: ReplyNotice) => redirect(`${inquiryPagePath(side, inquiry.public_id)}&notice=${notice}`, 303);
  const intent = form.get("intent");
  if (intent === "replied-by-email" && side === "owner") {
    const result = await markInquiryAnswered(inquiry.id, "owner_link");
    if (result.ok) return back("marked");
    return data<ReplyActionError>(
      {
        intent: "replied-by-email",
        error: MARK_REFUSED[result.reason] ?? "This inquiry is closed.",
        text: "",
      },
      { status: 409 },
    );
  }
  if ((intent === "choose-refund" || intent === "choose-credit") && side === "buyer") {
    // Two tabs or two processes: the conditional UPDATE lets one choice win; the other is told which.
    const chosen = intent === "choose-refund" ? await chooseRefund(inquiry.id) : await chooseCredit(inquiry.id);
    if (!chosen.ok)
      return data<ReplyActionError>({ intent: "fee-choice", error: chosen.message, text: "" }, { status: 409 });
    if (intent === "choose-credit") return back("credited");
    await refundChosenInquiry(inquiry.id);
    return back("refunding");
  }
  if (isOfferIntent(intent)) return offerAction(inquiry, side, intent, form, back);
  if (intent !== "reply") throw data(null, { status: 400 });
  const parsed = parseMessage(form.get(MESSAGE_FIELD));
  if (!parsed.ok)
    return data<ReplyActionError>({ intent: "reply", error: parsed.message, text: parsed.text }, { status: 400 });
  const sender =
    side === "buyer" ? ({ author: "buyer", via: "page" } as const) : ({ author: "owner", via: "page" } as const);
  const posted = await postInquiryMessage(inquiry, sender, parsed.text);
  if (posted.ok) return back("sent");
  const headers = posted.retryAfterSeconds ? { "Retry-After": String(posted.retryAfterSeconds) } : undefined;
  return data<ReplyActionError>(
    { intent: "reply", error: posted.message, text: parsed.text },
    { status: posted.reason === "closed" ? 409 : 429, headers },
  );
}
