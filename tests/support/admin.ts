// Admin sign-in helpers for other tests: a browser sign-in (Playwright) and an HTTP session (cookie).
import type Database from "better-sqlite3";
import type { Page } from "@playwright/test";
import { randomUUID } from "node:crypto";

export const TEST_ADMIN = { email: "admin@example.test", password: "correct-horse-battery" };

/**
 * Signs the page's browser context in over HTTP (the login form's post, sent by the context's request
 * client, so the session and device cookies land in the browser) and opens the Admin Panel. Faster than
 * filling the form; the form itself is tested in admin.spec's sign-in test and sign-in-lockout.spec.
 */
export async function signInAdmin(page: Page, admin = TEST_ADMIN): Promise<void> {
  const response = await page.request.post("/admin", {
    form: { intent: "login", email: admin.email, password: admin.password },
    maxRedirects: 0,
  });
  if (response.status() !== 303) throw new Error(`admin sign-in failed with ${response.status()}`);
  await page.goto("/admin");
  await page.getByRole("heading", { level: 1, name: "Admin Panel" }).waitFor();
}

/** Signs in over HTTP; returns the Cookie header value for later requests. */
export async function adminCookie(
  baseUrl: string,
  admin = TEST_ADMIN,
  headers: Record<string, string> = {},
): Promise<string> {
  const response = await fetch(new URL("/admin", baseUrl), {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams({ intent: "login", email: admin.email, password: admin.password }),
  });
  const setCookie = response.headers.get("set-cookie");
  if (response.status !== 303 || !setCookie) throw new Error(`admin sign-in failed with ${response.status}`);
  return setCookie.split(";")[0]!;
}

/** A paid inquiry straight into the database (test setup), paid through the test provider by default. */
export function insertPaidInquiry(
  db: Database.Database,
  inquiry: {
    domainId: number;
    domainName: string;
    name?: string;
    email?: string;
    message?: string;
    amountCents?: number;
    paidAt?: string;
    paymentId?: string;
    provider?: string;
  },
): number {
  const paidAt = inquiry.paidAt ?? new Date().toISOString();
  const result = db
    .prepare(
      `INSERT INTO inquiries (public_id, domain_id, domain_name, name, email, phone, message, offer, amount_cents, currency,
         status, provider, payment_intent_id, created_at, paid_at, owner_email)
       VALUES (?, ?, ?, ?, ?, '+1 555 0100', ?, '$5,000', ?, 'usd', 'paid', ?, ?, ?, ?,
         (SELECT trim(owner_email) FROM domains WHERE id = ?))`,
    )
    .run(
      randomUUID(),
      inquiry.domainId,
      inquiry.domainName,
      inquiry.name ?? "Ada Buyer",
      inquiry.email ?? "ada@example.test",
      inquiry.message ?? "I would like to buy this domain.",
      inquiry.amountCents ?? 1999,
      inquiry.provider ?? "test",
      inquiry.paymentId ?? null,
      paidAt,
      paidAt,
      inquiry.domainId,
    );
  return Number(result.lastInsertRowid);
}

/**
 * A really paid inquiry: through the app's own JSON payment routes and the offline test provider
 * (card 4242), as the buyer's browser would pay. Returns the inquiry id and the provider's payment id.
 */
export async function payInquiry(
  app: { url: string; origin: string; db: () => Database.Database },
  domainShort: string,
  buyer = {
    name: "Ada Buyer",
    email: "ada@buyer.example",
    phone: "+1 555 0100",
    offer: "$12,500",
    message: "I would like to buy this domain.",
  },
): Promise<{ inquiryId: number; paymentId: string }> {
  const post = async (path: string, body: unknown) => {
    const response = await fetch(new URL(path, app.url), {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: app.origin },
      body: JSON.stringify(body),
    });
    return (await response.json()) as Record<string, any>;
  };
  const created = await post("/api/create-payment-intent", { domain_name: domainShort, customer_info: buyer });
  if (!created.client_secret) throw new Error(`payment not created: ${JSON.stringify(created)}`);
  await post("/api/test-payments/confirm", {
    client_secret: created.client_secret,
    card_number: "4242424242424242",
    expiry: "12/40",
    cvc: "123",
  });
  const confirmed = await post("/api/confirm-payment", {
    payment_intent_id: created.payment_intent_id,
    domain_name: domainShort,
    customer_info: buyer,
  });
  if (!confirmed.ok) throw new Error(`payment not confirmed: ${JSON.stringify(confirmed)}`);
  const row = app
    .db()
    .prepare("SELECT id FROM inquiries WHERE payment_intent_id = ?")
    .get(created.payment_intent_id) as { id: number };
  return { inquiryId: row.id, paymentId: created.payment_intent_id };
}
