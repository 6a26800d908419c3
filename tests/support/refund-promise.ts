// Helpers for the refund-promise tests: a buyer paying with the test provider (no JavaScript) and reading
// what a mail program shows. A test that needs the server at a later time starts one on the same database
// (startServerAt in ./app-server).
import type { AppServer } from "./app-server";
import { insertDomain, uniqueDomainName } from "./data";
import { BUYER, postForm, request, setFeeCents } from "./http";
import { mailAbout } from "./mail-files";
import { CookieJar } from "./owner";
import { mailText } from "./mail-text";
import type { ReceivedMail } from "./smtp";

export { mailText, subjectOf } from "./mail-text";

export const DAY_MS = 24 * 60 * 60 * 1000;

export function newDomain(server: AppServer, options: { ownerEmail?: string; prefix?: string } = {}) {
  const name = uniqueDomainName(options.prefix ?? "promise");
  const id = insertDomain(server.db(), {
    name,
    priceCents: 250_000,
    ownerEmail: options.ownerEmail ?? "owner@example.test",
  });
  return { id, name, short: name.replace(/\.com$/, "") };
}

/**
 * A buyer pays the inquiry fee with the test provider's checkout page; returns the paid inquiry row. The
 * buyer's browser keeps its cookies in `jar` (the one naming the inquiry it started, for its success step).
 */
export async function payInquiry(
  server: AppServer,
  domain: { short: string },
  buyer: Partial<typeof BUYER> = {},
  jar = new CookieJar(),
) {
  const started = await postForm(server, `/payment/${domain.short}`, { intent: "inquiry", ...BUYER, ...buyer });
  if (started.status !== 303) throw new Error(`inquiry form answered ${started.status}`);
  jar.take(started.headers);
  // Locations may be absolute on PUBLIC_URL: follow them on the test server.
  const local = (location: string | null) => {
    const url = new URL(location!, server.url);
    return url.pathname + url.search;
  };
  const paid = await postForm(server, local(started.headers.get("location")), {
    card_number: "4242424242424242",
    expiry: "12/40",
    cvc: "123",
  });
  const back = local(paid.headers.get("location"));
  const success = await request(server, back, { headers: { cookie: jar.header() } });
  if (!success.body.includes("Payment Successful!")) throw new Error("payment did not succeed");
  const publicId = new URL(back, server.url).searchParams.get("inquiry")!;
  return inquiryRow(server, publicId);
}

/**
 * A $19.99 inquiry about a new domain (`prefix`), paid; with the buyer's and the owner's page links as
 * their emails give them (the receipt and the owner's inquiry email).
 */
export async function paidInquiryWithLinks(server: AppServer, prefix: string) {
  setFeeCents(server.db(), 1999);
  const domain = newDomain(server, { prefix });
  const email = `${prefix}-${domain.id}@buyer.example`;
  const inquiry = await payInquiry(server, domain, { email });
  const buyerLink = linkIn(await mailAbout(server, "buyer_receipt", inquiry.public_id), "/inquiry/");
  const ownerLink = linkIn(await mailAbout(server, "owner_inquiry", inquiry.public_id), "/owner-reply/");
  return { domain, inquiry, email, buyerLink, ownerLink };
}

export interface InquiryRow {
  id: number;
  public_id: string;
  status: string;
  email: string;
  paid_at: string | null;
  answered_at: string | null;
  answered_via: string | null;
  refunded_at: string | null;
  reply_deadline_at: string | null;
  refund_attempts: number;
  refund_next_attempt_at: string | null;
  refund_last_error: string | null;
  credit_offered_at: string | null;
  payment_intent_id: string | null;
}

export function inquiryRow(server: AppServer, publicId: string): InquiryRow {
  return server.db().prepare("SELECT * FROM inquiries WHERE public_id = ?").get(publicId) as InquiryRow;
}

/** The owner's "I have replied" link in an owner email. */
export function replyLinkIn(mail: ReceivedMail): URL {
  const match = /(https?:\/\/\S+\/owner-reply\/\S+)/.exec(mailText(mail));
  if (!match) throw new Error(`no reply link in:\n${mailText(mail)}`);
  return new URL(match[1]!);
}

/** The same link's path on the test server (PUBLIC_URL in the email may name another host). */
export const onServer = (link: URL) => link.pathname + link.search;

/** The first link in an email whose path starts with `pathPrefix` (e.g. "/inquiry/"), on the test server. */
export function linkIn(mail: ReceivedMail, pathPrefix: string): string {
  const text = mailText(mail);
  const match = new RegExp(`(https?://[^\\s/]+${pathPrefix.replace(/\//g, "\\/")}\\S+)`).exec(text);
  if (!match) throw new Error(`no ${pathPrefix} link in:\n${text}`);
  return onServer(new URL(match[1]!));
}

/** The admin's setting for a silent owner: "refund" (Refund automatically) or "choose" (refund or credit). */
export function setSilencePolicy(db: import("better-sqlite3").Database, policy: "refund" | "choose"): void {
  const now = new Date().toISOString();
  db.prepare(
    `INSERT INTO settings (key, value, created_at, updated_at) VALUES ('silence_policy', ?, ?, ?)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
  ).run(policy, now, now);
}

/** The admin's response window in days (the promise's N). */
export function setResponseWindowDays(db: import("better-sqlite3").Database, days: number): void {
  const now = new Date().toISOString();
  db.prepare(
    `INSERT INTO settings (key, value, created_at, updated_at) VALUES ('response_window_days', ?, ?, ?)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
  ).run(String(days), now, now);
}
