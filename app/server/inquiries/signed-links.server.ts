// Signed links to an inquiry: HMAC-SHA256 with the session secret, so they cannot be forged or moved to
// another inquiry. The owner's emails used to carry an "I have replied to this buyer" link signed over
// purpose + public id + expiry (?expires=&signature=); those still verify here and lead to the owner's
// inquiry page. New emails carry the inquiry page links below.
import { createHmac, timingSafeEqual } from "node:crypto";
import { now } from "../runtime/clock.server";
import { env } from "../runtime/env.server";

const PURPOSE = "owner-replied";

export type ReplyLinkCheck =
  { ok: true; publicId: string; expiresAt: Date } | { ok: false; reason: "invalid" | "expired"; expiresAt?: Date };

function signature(publicId: string, expiresSeconds: number): string {
  return createHmac("sha256", env.sessionSecret)
    .update(`${PURPOSE}\n${publicId}\n${expiresSeconds}`)
    .digest("base64url");
}

/** Absolute links in emails: PUBLIC_URL, or this server on localhost. */
export function publicOrigin(): string {
  return env.PUBLIC_URL ? new URL(env.PUBLIC_URL).origin : `http://localhost:${env.PORT}`;
}

/** Checks the signature (in constant time) before anything else, then the expiry. */
export function verifyReplyLink(publicId: string, params: URLSearchParams): ReplyLinkCheck {
  const expiresText = params.get("expires") ?? "";
  const given = params.get("signature") ?? "";
  if (
    !/^[A-Za-z0-9_-]{10,64}$/.test(publicId) ||
    !/^\d{1,12}$/.test(expiresText) ||
    !/^[A-Za-z0-9_-]{43}$/.test(given)
  ) {
    return { ok: false, reason: "invalid" };
  }
  const expires = Number(expiresText);
  const expected = Buffer.from(signature(publicId, expires));
  const actual = Buffer.from(given);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return { ok: false, reason: "invalid" };
  const expiresAt = new Date(expires * 1000);
  if (now().getTime() >= expiresAt.getTime()) return { ok: false, reason: "expired", expiresAt };
  return { ok: true, publicId, expiresAt };
}

// The conversation's links (issue 23): the buyer's inquiry page and the owner's side of it. Same HMAC
// over purpose + public id, with no expiry: they work for as long as the inquiry exists (the page says
// when it is closed). A different purpose per side, so the buyer's link never opens the owner's page.
export type InquirySide = "buyer" | "owner";
const SIDE_PURPOSE: Record<InquirySide, string> = { buyer: "buyer-inquiry", owner: "owner-inquiry" };
const SIDE_PATH: Record<InquirySide, string> = { buyer: "/inquiry/", owner: "/owner-reply/" };

/** The `sig` of a link that opens one thing (an inquiry, a deal) for one purpose: HMAC over purpose + id. */
export function linkSignature(purpose: string, id: string): string {
  return createHmac("sha256", env.sessionSecret).update(`${purpose}\n${id}`).digest("base64url");
}

/** True when `sig` is linkSignature(purpose, id), compared in constant time. */
export function verifyLinkSignature(purpose: string, id: string, sig: string | null): boolean {
  if (!/^[A-Za-z0-9_-]{10,64}$/.test(id) || !sig || !/^[A-Za-z0-9_-]{43}$/.test(sig)) return false;
  const expected = Buffer.from(linkSignature(purpose, id));
  const actual = Buffer.from(sig);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

export function inquiryPagePath(side: InquirySide, publicId: string): string {
  return `${SIDE_PATH[side]}${encodeURIComponent(publicId)}?sig=${linkSignature(SIDE_PURPOSE[side], publicId)}`;
}

export function inquiryPageUrl(side: InquirySide, publicId: string): string {
  return `${publicOrigin()}${inquiryPagePath(side, publicId)}`;
}

/** True when `sig` is this side's signature of the public id (compared in constant time). */
export function verifyInquirySignature(side: InquirySide, publicId: string, sig: string | null): boolean {
  return verifyLinkSignature(SIDE_PURPOSE[side], publicId, sig);
}
