// Creating inquiries and reading them back for the payment page. Fulfilment is in fulfil.server.ts.
import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { Domain, Inquiry } from "../../../db/schema";
import { lookupCandidates } from "../../lib/domain-name";
import { INQUIRY_LIMITS, isOneLine, REQUIRED_FIELDS_MESSAGE } from "../../lib/inquiry";
import { nowIso } from "../runtime/clock.server";
import { db } from "../db/database.server";
import type { Executor } from "../db/dialect.server";
import { withoutNul } from "../db/strip-nul.server";
import { createRateLimit } from "../http/rate-limit.server";
import { env } from "../runtime/env.server";

const requiredText = (max: number, label: string) =>
  z
    .string()
    .trim()
    .min(1, REQUIRED_FIELDS_MESSAGE)
    .max(max, `${label} must be at most ${max.toLocaleString("en-US")} characters`);
const optionalText = (max: number, label: string) =>
  z.string().trim().max(max, `${label} must be at most ${max} characters`).default("");
const oneLine = (label: string) => [isOneLine, `${label} must be one line`] as const;

export const InquirySchema = z.object({
  name: requiredText(INQUIRY_LIMITS.name, "Full Name").refine(...oneLine("Full Name")),
  email: requiredText(INQUIRY_LIMITS.email, "Email Address").pipe(z.email("Please enter a valid email address")),
  phone: optionalText(INQUIRY_LIMITS.phone, "Phone")
    .refine(...oneLine("Phone"))
    .refine((value) => /^[0-9+()\-.\s/ext]*$/i.test(value), "Please enter a valid phone number"),
  offer: optionalText(INQUIRY_LIMITS.offer, "Your Offer").refine(...oneLine("Your Offer")),
  message: requiredText(INQUIRY_LIMITS.message, "Message to Owner"),
});
export type InquiryInput = z.infer<typeof InquirySchema>;
export type InquiryField = keyof InquiryInput;

export type InquiryValidation =
  | { ok: true; input: InquiryInput }
  | { ok: false; message: string; fieldErrors: Partial<Record<InquiryField, string>>; bot: boolean };

/**
 * Validates the form; a filled honeypot field marks a bot. Non-string values count as missing, and NUL
 * characters are dropped (PostgreSQL cannot store them; see db/strip-nul.server.ts).
 */
export function validateInquiry(raw: Record<string, unknown>): InquiryValidation {
  const text = (key: string) => (typeof raw[key] === "string" ? (withoutNul(raw[key]) as string) : "");
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
  return {
    ok: false,
    message: missing ? REQUIRED_FIELDS_MESSAGE : Object.values(fieldErrors)[0]!,
    fieldErrors,
    bot: false,
  };
}

// Creating an inquiry (and a payment with the provider) costs a provider call: bounded per address.
export const inquiryRateLimit = createRateLimit({ name: "inquiry", limit: 60, windowMs: 10 * 60 * 1000 });
// With a fee of 0 nothing filters spam, so free inquiries get a much tighter limit.
export const freeInquiryRateLimit = createRateLimit({ name: "free-inquiry", limit: 5, windowMs: 60 * 60 * 1000 });
export const TOO_MANY_INQUIRIES_MESSAGE = "Too many inquiries from your address. Please try again later.";

export async function createInquiry(
  options: { domain: Domain; input: InquiryInput; amountCents: number; provider: string; clientIp: string | null },
  executor: Executor = db,
): Promise<Inquiry> {
  const { domain, input } = options;
  return executor
    .insertInto("inquiries")
    .values({
      public_id: randomBytes(16).toString("base64url"),
      domain_id: domain.id,
      domain_name: domain.domain_name,
      name: input.name,
      email: input.email,
      phone: input.phone,
      message: input.message,
      offer: input.offer,
      asking_price_cents: domain.asking_price_cents,
      amount_cents: options.amountCents,
      currency: "usd",
      status: "pending",
      provider: options.provider,
      client_ip: options.clientIp,
      created_at: nowIso(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findInquiryByPublicId(publicId: string): Promise<Inquiry | null> {
  if (!/^[A-Za-z0-9_-]{10,64}$/.test(publicId)) return null;
  return (await db.selectFrom("inquiries").selectAll().where("public_id", "=", publicId).executeTakeFirst()) ?? null;
}

/** An inquiry whose domain was deleted (it is not live any more), named by the payment page's parameter. */
export async function findInquiryForDelistedDomain(domainParam: string, publicId: string): Promise<Inquiry | null> {
  const inquiry = await findInquiryByPublicId(publicId);
  if (!inquiry || !lookupCandidates(domainParam).includes(inquiry.domain_name)) return null;
  const deleted = await db
    .selectFrom("domains")
    .select("id")
    .where("id", "=", inquiry.domain_id)
    .where("deleted_at", "is not", null)
    .executeTakeFirst();
  return deleted ? inquiry : null;
}

export async function findInquiryByPaymentId(paymentId: string): Promise<Inquiry | null> {
  return (
    (await db.selectFrom("inquiries").selectAll().where("payment_intent_id", "=", paymentId).executeTakeFirst()) ?? null
  );
}

export async function attachPayment(inquiry: Inquiry, paymentId: string): Promise<void> {
  if (inquiry.payment_intent_id !== paymentId) {
    await db.updateTable("inquiries").set({ payment_intent_id: paymentId }).where("id", "=", inquiry.id).execute();
  }
  await recordPaymentRef(inquiry.id, "payment", paymentId);
}

/** The inquiry keeps its newest checkout; every checkout ever made stays in payment_refs for the reconciler. */
export async function attachCheckout(inquiry: Inquiry, checkoutId: string): Promise<void> {
  if (inquiry.checkout_session_id !== checkoutId) {
    await db.updateTable("inquiries").set({ checkout_session_id: checkoutId }).where("id", "=", inquiry.id).execute();
  }
  await recordPaymentRef(inquiry.id, "checkout", checkoutId);
}

/** Every payment and checkout made for an inquiry: the reconciler (reconciler.server.ts) asks about each. */
export async function recordPaymentRef(inquiryId: number, kind: "payment" | "checkout", refId: string): Promise<void> {
  const createdAt = nowIso();
  const checkAt = new Date(Date.parse(createdAt) + env.PAYMENT_RECONCILE_AFTER_MS).toISOString();
  await db
    .insertInto("payment_refs")
    .values({ ref_id: refId, inquiry_id: inquiryId, kind, created_at: createdAt, next_check_at: checkAt })
    .onConflict((oc) => oc.doNothing())
    .execute();
}
