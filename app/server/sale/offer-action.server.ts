// The inquiry page's offer posts (routes/inquiry.tsx and owner-reply.tsx, through reply-action.server.ts):
// "Send offer", "Accept offer", "Counter" and "Decline". Success redirects back (Post/Redirect/Get); a
// refusal says why and keeps the amount typed.
import { data } from "react-router";
import type { Inquiry } from "../../../db/schema";
import { COUNTER_FIELD, OFFER_FIELD, parseOfferAmount } from "../../lib/offer-amount";
import { answerOffer, sendOffer, type OfferSide } from "./offers.server";

export const OFFER_INTENTS = ["send-offer", "counter-offer", "accept-offer", "decline-offer"] as const;
export type OfferIntent = (typeof OFFER_INTENTS)[number];
export type OfferNotice = "offer-sent" | "counter-sent" | "offer-accepted" | "offer-declined";

export const OFFER_NOTICE_TEXT: Record<OfferNotice, string> = {
  "offer-sent": "Your offer was sent.",
  "counter-sent": "Your counter-offer was sent.",
  "offer-accepted": "Offer accepted: a deal is agreed.",
  "offer-declined": "The offer was declined.",
};

export function isOfferIntent(intent: unknown): intent is OfferIntent {
  return OFFER_INTENTS.includes(intent as OfferIntent);
}

export interface OfferActionError {
  intent: "offer";
  error: string;
  text: string;
}

export type OfferOutcome =
  | { ok: true; notice: OfferNotice }
  | { ok: false; error: string; text: string; status: number; retryAfterSeconds?: number };

/**
 * One offer step by one side, the amount typed read here (never a cents figure from the browser). The
 * inquiry pages and the owner's desk both come through it.
 */
export async function runOfferIntent(
  inquiry: Inquiry,
  side: OfferSide,
  intent: OfferIntent,
  typed: string,
  options: { bySite?: boolean } = {},
): Promise<OfferOutcome> {
  let result;
  if (intent === "send-offer" || intent === "counter-offer") {
    const amount = parseOfferAmount(typed);
    if (!amount.ok) return { ok: false, error: amount.message, text: typed, status: 400 };
    result = await sendOffer(inquiry, side, amount.cents, { counter: intent === "counter-offer", ...options });
    if (result.ok) {
      return {
        ok: true,
        notice: result.agreed ? "offer-accepted" : intent === "send-offer" ? "offer-sent" : "counter-sent",
      };
    }
  } else {
    result = await answerOffer(inquiry, side, intent === "accept-offer" ? "accept" : "decline", options);
    if (result.ok) return { ok: true, notice: intent === "accept-offer" ? "offer-accepted" : "offer-declined" };
  }
  return {
    ok: false,
    error: result.message,
    text: typed,
    status: result.reason === "rate_limited" ? 429 : 409,
    retryAfterSeconds: result.retryAfterSeconds,
  };
}

export async function offerAction(
  inquiry: Inquiry,
  side: OfferSide,
  intent: OfferIntent,
  form: FormData,
  back: (notice: OfferNotice) => Response,
  options: { bySite?: boolean } = {},
) {
  if (intent === "send-offer" && side !== "buyer") throw data(null, { status: 400 });
  const field = intent === "counter-offer" ? COUNTER_FIELD : OFFER_FIELD;
  const outcome = await runOfferIntent(inquiry, side, intent, String(form.get(field) ?? ""), options);
  if (outcome.ok) return back(outcome.notice);
  const headers = outcome.retryAfterSeconds ? { "Retry-After": String(outcome.retryAfterSeconds) } : undefined;
  return data<OfferActionError>(
    { intent: "offer", error: outcome.error, text: outcome.text },
    { status: outcome.status, headers },
  );
}
