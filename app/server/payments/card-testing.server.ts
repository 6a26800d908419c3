// Card testing: fraudsters use open payment forms to try stolen cards, and each try costs the account
// Stripe API calls and its reputation. Three bounds:
//   - declines are counted per inquiry (confirm answers, payment_intent.payment_failed, test-card
//     declines); at MAX_DECLINES its payments are canceled and the inquiry is closed;
//   - Stripe payments created per hour are capped site-wide (MAX_PAYMENTS_PER_HOUR, counted in the
//     database so every process sees them) and per client address (MAX_PAYMENTS_PER_ADDRESS_PER_HOUR);
//   - the payment page and the confirm call each ask the provider about one payment at most once per
//     ASK_INTERVAL_MS: calls in between share one answer (throttledAsk). Each has its own key, so the
//     buyer's confirm right after the page loaded is not held back.
import type { Inquiry } from "../../../db/schema";
import { now, nowMs } from "../runtime/clock.server";
import { db } from "../db/database.server";
import { env } from "../runtime/env.server";
import { createRateLimit } from "../http/rate-limit.server";
import { getPaymentProvider, type ProviderName } from "./index.server";
import { log } from "../runtime/log.server";

export const MAX_DECLINES = 5;
export const TOO_MANY_DECLINES_TEXT =
  "This payment was declined too many times and has been canceled. Please check with your bank, then send your inquiry again.";
export const PAYMENTS_PAUSED_TEXT = "Too many payments are being started right now. Please try again later.";
const ASK_INTERVAL_MS = 2_000;

/** One more decline for the inquiry; at MAX_DECLINES its payments are canceled and it is closed. */
export async function countDecline(reference: string | null | undefined): Promise<void> {
  if (!reference) return;
  const row = await db
    .updateTable("inquiries")
    .set((eb) => ({ declines: eb("declines", "+", 1) }))
    .where("public_id", "=", reference)
    .where("status", "=", "pending")
    .returning(["id", "declines", "provider"])
    .executeTakeFirst();
  if (!row || row.declines < MAX_DECLINES) return;
  const provider = getPaymentProvider(row.provider as ProviderName);
  const refs = await db
    .selectFrom("payment_refs")
    .select(["ref_id", "kind"])
    .where("inquiry_id", "=", row.id)
    .execute();
  for (const ref of refs) {
    try {
      if (ref.kind === "payment") await provider.cancelPayment(ref.ref_id);
      else await provider.expireCheckout(ref.ref_id);
    } catch (error) {
      log.error(
        { inquiryId: row.id, ref: ref.ref_id, error: (error as Error).message },
        "cancel after declines failed",
      );
    }
  }
  await db
    .updateTable("inquiries")
    .set({ status: "failed", last_error: TOO_MANY_DECLINES_TEXT })
    .where("id", "=", row.id)
    .where("status", "=", "pending")
    .execute();
  log.warn({ inquiryId: row.id, declines: row.declines }, "inquiry closed after repeated declines");
}

export function isClosedAfterDeclines(inquiry: Inquiry): boolean {
  return inquiry.status === "failed" && !inquiry.expired_at && inquiry.declines >= MAX_DECLINES;
}

// Per address; the limit is a setting read at each attempt.
const paymentsPerAddress = createRateLimit({
  name: "payments-per-address",
  limit: () => env.MAX_PAYMENTS_PER_ADDRESS_PER_HOUR,
  windowMs: 60 * 60 * 1000,
});

/** Whether a new Stripe payment may be created for this client (and counts it when it may). */
export async function mayCreatePayment(clientAddress: string, provider: ProviderName | "free"): Promise<boolean> {
  if (provider !== "stripe") return true;
  const hourAgo = new Date(now().getTime() - 60 * 60 * 1000).toISOString();
  const { n } = await db
    .selectFrom("payment_refs")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("created_at", ">=", hourAgo)
    .executeTakeFirstOrThrow();
  if (Number(n) >= env.MAX_PAYMENTS_PER_HOUR) return false;
  return paymentsPerAddress.hit(clientAddress);
}

/** Asks for the provider's answers on the buyer's paths, per client address. */
export const providerAskRateLimit = createRateLimit({ name: "provider-ask", limit: 60, windowMs: 60 * 1000 });
export const TOO_MANY_CHECKS_TEXT = "Too many payment checks from your address. Please wait a minute.";

const asks = new Map<string, { at: number; pending: Promise<unknown> | null }>();

/**
 * One provider question per key (a payment or checkout id) per ASK_INTERVAL_MS of the app's clock: a call
 * during a question shares its answer; one soon after waits for the interval, then asks afresh (never stale).
 */
export function throttledAsk<T>(key: string, ask: () => Promise<T>): Promise<T> {
  const entry = asks.get(key);
  if (entry?.pending) return entry.pending as Promise<T>;
  if (asks.size > 10_000) {
    const cutoff = nowMs() - ASK_INTERVAL_MS;
    for (const [k, v] of asks) if (!v.pending && v.at < cutoff) asks.delete(k);
  }
  const wait = entry ? entry.at + ASK_INTERVAL_MS - nowMs() : 0;
  const pending = (async () => {
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    try {
      return await ask();
    } finally {
      asks.set(key, { at: nowMs(), pending: null });
    }
  })();
  asks.set(key, { at: nowMs() + Math.max(wait, 0), pending });
  return pending;
}
