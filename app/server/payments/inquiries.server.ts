// Creating inquiries and reading them back for the payment page. Fulfilment is in fulfil.server.ts.
import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { Domain, Inquiry } from "../../../db/schema";
import { lookupCandidates } from "../../lib/domain-name";
import { INQUIRY_LIMITS, REQUIRED_FIELDS_MESSAGE } from "../../lib/inquiry";
import { nowIso } from "../runtime/clock.server";
import { lazyStatement } from "../db/database.server";
import { createRateLimit } from "../http/rate-limit.server";
import { env } from "../runtime/env.server";

const requiredText = (max: number, label: string) =>
  z.string().trim().min(1, REQUIRED_FIELDS_MESSAGE).max(max, `${label} must be at most ${max.toLocaleString("en-US")} characters`);
const optionalText = (max: number, label: string) =>
  z.string().trim().max(max, `${label} must be at most ${max} characters`).default("");

export const InquirySchema = z.object({
  name: requiredText(INQUIRY_LIMITS.name, "Full Name").refine((value) => !/[\r\n]/.test(value), "Full Name must be one line"),
  email: requiredText(INQUIRY_LIMITS.email, "Email Address").pipe(z.email("Please enter a valid email address")),
  phone: optionalText(INQUIRY_LIMITS.phone, "Phone").refine((value) => /^[0-9+()\-.\s/ext]*$/i.test(value), "Please enter a valid phone number"),
  offer: optionalText(INQUIRY_LIMITS.offer, "Your Offer"),
  message: requiredText(INQUIRY_LIMITS.message, "Message to Owner"),
});
export type InquiryInput = z.infer<typeof InquirySchema>;
export type InquiryField = keyof InquiryInput;

export type InquiryValidation =
  | { ok: true; input: InquiryInput }
  | { ok: false; message: string; fieldErrors: Partial<Record<InquiryField, string>>; bot: boolean };

/** Validates the form; a filled honeypot field marks a bot. Non-string values count as missing. */
export function validateInquiry(raw: Record<string, unknown>): InquiryValidation {
  const text = (key: string) => (typeof raw[key] === "string" ? (raw[key] as string) : "");
  if (text(INQUIRY_LIMITS.honeypotField).trim() !== "") {
    return { ok: false, message: REQUIRED_FIELDS_MESSAGE, fieldErrors: {}, bot: true };
  }
  const parsed = InquirySchema.safeParse({
    name: text("name"),
    email: text("email"),
    phone: text("phone"),
    offer: text("offer"),
    message: text("message"),
  });
  if (parsed.success) return { ok: true, input: parsed.data };
  const fieldErrors: Partial<Record<InquiryField, string>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as InquiryField;
    fieldErrors[field] ??= issue.message;
  }
  const missing = Object.values(fieldErrors).includes(REQUIRED_FIELDS_MESSAGE);
  return { ok: false, message: missing ? REQUIRED_FIELDS_MESSAGE : Object.values(fieldErrors)[0]!, fieldErrors, bot: false };
}

// Creating an inquiry (and a payment with the provider) costs a provider call: bounded per address.
export const inquiryRateLimit = createRateLimit({ limit: 60, windowMs: 10 * 60 * 1000 });
// With a fee of 0 nothing filters spam, so free inquiries get a much tighter limit.
export const freeInquiryRateLimit = createRateLimit({ limit: 5, windowMs: 60 * 60 * 1000 });
export const TOO_MANY_INQUIRIES_MESSAGE = "Too many inquiries from your address. Please try again later.";

const insertInquiry = lazyStatement<
  [string, number, string, string, string, string, string, string, number, string, string, string | null, string],
  Inquiry
>(
  `INSERT INTO inquiries (public_id, domain_id, domain_name, name, email, phone, message, offer, amount_cents, currency,
     status, provider, client_ip, created_at)
   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?) RETURNING *`,
);
const selectByPublicId = lazyStatement<[string], Inquiry>("SELECT * FROM inquiries WHERE public_id = ?");
const selectByPaymentId = lazyStatement<[string], Inquiry>("SELECT * FROM inquiries WHERE payment_intent_id = ?");
const setPaymentId = lazyStatement<[string, number]>("UPDATE inquiries SET payment_intent_id = ? WHERE id = ?");
const insertPaymentRef = lazyStatement<[{ refId: string; inquiryId: number; kind: string; createdAt: string; checkAt: string }]>(
  `INSERT OR IGNORE INTO payment_refs (ref_id, inquiry_id, kind, created_at, next_check_at)
   VALUES (@refId, @inquiryId, @kind, @createdAt, @checkAt)`,
);
const selectDeletedDomain = lazyStatement<[number], { id: number }>("SELECT id FROM domains WHERE id = ? AND deleted_at IS NOT NULL");
const setCheckoutId = lazyStatement<[string, number]>("UPDATE inquiries SET checkout_session_id = ? WHERE id = ?");

export function createInquiry(options: {
  domain: Domain;
  input: InquiryInput;
  amountCents: number;
  provider: string;
  clientIp: string | null;
}): Inquiry {
  const { domain, input } = options;
  return insertInquiry().get(
    randomBytes(16).toString("base64url"),
    domain.id,
    domain.domain_name,
    input.name,
    input.email,
    input.phone,
    input.message,
    input.offer,
    options.amountCents,
    "usd",
    options.provider,
    options.clientIp,
    nowIso(),
  )!;
}

export function findInquiryByPublicId(publicId: string): Inquiry | null {
  if (!/^[A-Za-z0-9_-]{10,64}$/.test(publicId)) return null;
  return selectByPublicId().get(publicId) ?? null;
}

/** An inquiry whose domain was deleted (it is not live any more), named by the payment page's parameter. */
export function findInquiryForDelistedDomain(domainParam: string, publicId: string): Inquiry | null {
  const inquiry = findInquiryByPublicId(publicId);
  if (!inquiry || !lookupCandidates(domainParam).includes(inquiry.domain_name)) return null;
  return selectDeletedDomain().get(inquiry.domain_id) ? inquiry : null;
}

export function findInquiryByPaymentId(paymentId: string): Inquiry | null {
  return selectByPaymentId().get(paymentId) ?? null;
}

export function attachPayment(inquiry: Inquiry, paymentId: string): void {
  if (inquiry.payment_intent_id !== paymentId) setPaymentId().run(paymentId, inquiry.id);
  recordPaymentRef(inquiry.id, "payment", paymentId);
}

/** The inquiry keeps its newest checkout; every checkout ever made stays in payment_refs for the reconciler. */
export function attachCheckout(inquiry: Inquiry, checkoutId: string): void {
  if (inquiry.checkout_session_id !== checkoutId) setCheckoutId().run(checkoutId, inquiry.id);
  recordPaymentRef(inquiry.id, "checkout", checkoutId);
}

/** Every payment and checkout made for an inquiry: the reconciler (reconciler.server.ts) asks about each. */
export function recordPaymentRef(inquiryId: number, kind: "payment" | "checkout", refId: string): void {
  const createdAt = nowIso();
  const checkAt = new Date(Date.parse(createdAt) + env.PAYMENT_RECONCILE_AFTER_MS).toISOString();
  insertPaymentRef().run({ refId, inquiryId, kind, createdAt, checkAt });
}
