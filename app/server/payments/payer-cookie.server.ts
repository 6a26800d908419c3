// Which inquiries this browser started (issue #34 item 1): the success step shows its details, the
// receipt's address and the buyer's signed inquiry link only to the browser holding one of these. A public
// id alone opens nothing: every owner knows it (their email prints it, their link's path carries it).
// Signed with the session secret; SameSite=Lax, because Stripe Checkout comes back with a top-level GET
// from another site; Path=/payment covers the page and its .data form, nothing else.
import { createCookie } from "react-router";
import { secureFor } from "../admin/session.server";
import { now } from "../runtime/clock.server";
import { env } from "../runtime/env.server";
import { PENDING_INQUIRY_TTL_MS } from "./reconciler.server";

/** How long after payment the success step offers "View your inquiry" (the receipt keeps the link). */
export const INQUIRY_LINK_ON_SUCCESS_MS = 60 * 60 * 1000;
/** An inquiry may be paid until it expires, then its link is shown for an hour: no longer. */
const PAYER_ENTRY_MS = PENDING_INQUIRY_TTL_MS + INQUIRY_LINK_ON_SUCCESS_MS;
/** A buyer with several inquiries at once keeps the latest few. */
const MAX_ENTRIES = 5;

const payerCookie = createCookie("inquiry_payer", {
  httpOnly: true,
  sameSite: "lax",
  path: "/payment",
  secrets: [env.sessionSecret],
});

/** Public id -> expiry (epoch seconds). */
type Entries = Record<string, number>;

async function readEntries(request: Request): Promise<Entries> {
  const value: unknown = await payerCookie.parse(request.headers.get("Cookie"));
  if (!value || typeof value !== "object" || Array.isArray(value)) return {};
  const nowSeconds = now().getTime() / 1000;
  const entries: Entries = {};
  for (const [publicId, expires] of Object.entries(value)) {
    if (typeof expires === "number" && expires > nowSeconds) entries[publicId] = expires;
  }
  return entries;
}

/** True when this browser started the inquiry (its signed cookie names it and has not expired). */
export async function isInquiryPayer(request: Request, publicId: string): Promise<boolean> {
  return Object.hasOwn(await readEntries(request), publicId);
}

/** The Set-Cookie value that adds the inquiry to this browser's, keeping its latest others. */
export async function payerCookieFor(request: Request, publicId: string): Promise<string> {
  const expires = Math.floor((now().getTime() + PAYER_ENTRY_MS) / 1000);
  const kept = Object.entries(await readEntries(request))
    .filter(([id]) => id !== publicId)
    .sort(([, a], [, b]) => b - a)
    .slice(0, MAX_ENTRIES - 1);
  const entries: Entries = { ...Object.fromEntries(kept), [publicId]: expires };
  return payerCookie.serialize(entries, { maxAge: PAYER_ENTRY_MS / 1000, ...secureFor(request) });
}
