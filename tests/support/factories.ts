// Test data for in-process tests, made through the product's own server functions (app/server/**): what a
// test sets up is what an admin, an owner or a buyer could have made, and a schema change reaches the tests
// through those functions instead of through SQL in each test. Import only from tests/in-process (the
// functions open the file's database, ./in-process/setup.ts).
import { randomBytes } from "node:crypto";
import { DomainEntrySchema } from "../../app/lib/admin-forms";
import { formatCategoryList } from "../../app/lib/categories";
import { addDomain } from "../../app/server/admin/admin-domains.server";
import { createUserSession } from "../../app/server/admin/session.server";
import { upsertAdmin } from "../../app/server/admin/users.server";
import { setDomainCategories } from "../../app/server/catalog/categories.server";
import { insertDomain } from "../../app/server/catalog/domains.server";
import { db } from "../../app/server/db/database.server";
import { flushDomainViews, recordDomainView } from "../../app/server/catalog/domain-views.server";
import { setInquiryFee } from "../../app/server/catalog/settings.server";
import { postInquiryMessage } from "../../app/server/inquiries/messages.server";
import { createOwnerSession } from "../../app/server/owners/owner-session.server";
import { updateOwnerPrices } from "../../app/server/owners/owner-desk.server";
import { createPaymentForInquiry, startInquiry } from "../../app/server/payments/flow.server";
import { fulfilPayment } from "../../app/server/payments/fulfil.server";
import { getPaymentProvider, getTestProvider } from "../../app/server/payments/index.server";
import { findInquiryByPublicId } from "../../app/server/inquiries/inquiries.server";
import { setSilencePolicy, type SilencePolicy } from "../../app/server/inquiries/refund-promise.server";
import type { Deal, Domain, Inquiry } from "../../db/schema";
import { letterTag } from "./data";
import { BUYER } from "./http";
import { BROWSER_USER_AGENT } from "./raw-http";
import { requestFor } from "./in-process/routes";
import { render } from "./in-process/document";

// The buyer the HTTP tests use too.
export { BUYER };

/** A card the test provider accepts. */
export const GOOD_CARD = { number: "4242424242424242", expiry: "12/40", cvc: "123" };

/** A listed domain with a unique .com name (`prefix` then letters), added as the admin adds one. */
export async function createDomain(
  options: {
    prefix?: string;
    name?: string;
    priceCents?: number;
    ownerEmail?: string;
    trackingId?: string;
    categories?: string[];
    pitch?: string;
    /**
     * An owner email stored as given, not as the form cleans it (spaces, capitals): as domains imported
     * before the form's rules kept it.
     */
    storedOwnerEmail?: string;
    /** The sale's prices, set as the owner sets them on the Prices form. */
    buyNowCents?: number;
    minOfferCents?: number;
    autoAcceptCents?: number;
  } = {},
): Promise<Domain & { short: string }> {
  const domainName = options.name ?? `${letterTag(options.prefix ?? "test", 10)}.com`;
  // Through the Add Domain form's schema, as the admin's entry is read.
  const entry = DomainEntrySchema.parse({
    domainName,
    askingPrice: ((options.priceCents ?? 250_000) / 100).toFixed(2),
    trackingId: options.trackingId ?? "tracker",
    ownerEmail: options.ownerEmail ?? "owner@example.test",
    categories: formatCategoryList(options.categories ?? []),
    pitch: options.pitch ?? "",
  });
  let domain: Domain;
  if (options.storedOwnerEmail === undefined) domain = await addDomain(entry);
  else {
    // addDomain's two steps, with the owner email as given.
    domain = await insertDomain({
      ...entry,
      askingPriceCents: entry.askingPrice,
      ownerEmail: options.storedOwnerEmail,
    });
    await setDomainCategories(db, domain.id, entry.categories);
  }
  if (options.buyNowCents || options.minOfferCents || options.autoAcceptCents) {
    await updateOwnerPrices(domain.owner_email, domain.id, {
      askingPriceCents: domain.asking_price_cents,
      minOfferCents: options.minOfferCents ?? null,
      buyNowCents: options.buyNowCents ?? null,
      autoAcceptCents: options.autoAcceptCents ?? null,
    });
    domain = (await db.selectFrom("domains").selectAll().where("id", "=", domain.id).executeTakeFirstOrThrow())!;
  }
  return { ...domain, short: domainName.replace(/\.com$/, "") };
}

export interface TestAdmin {
  id: number;
  email: string;
  password: string;
  /** The Cookie header of a signed-in session of this admin, made with the account. */
  cookie: string;
}

/** An admin account (as ADMIN_EMAIL/ADMIN_PASSWORD or `npm run create-admin` make one), signed in. */
export async function createAdmin(options: { email?: string; password?: string } = {}): Promise<TestAdmin> {
  const email = options.email ?? `${letterTag("admin", 8)}@example.test`;
  const password = options.password ?? `correct horse ${randomBytes(6).toString("hex")}`;
  const { user } = await upsertAdmin(email, password);
  return { id: user.id, email, password, cookie: await adminSession(user.id) };
}

/**
 * Another signed-in session of an admin, as a sign-in makes one at the clock's time now (a session made
 * before the test moved the clock weeks ahead has expired by then).
 */
export async function adminSession(adminId: number): Promise<string> {
  return cookieFrom(await createUserSession(requestFor("/admin"), adminId));
}

/** A signed-in owner's Cookie header (a session as the emailed code or link starts one). */
export async function signInOwner(email: string): Promise<string> {
  return cookieFrom(await createOwnerSession(requestFor("/owner"), email));
}

/** The name=value part of a Set-Cookie header, as a browser sends it back. */
export function cookieFrom(setCookie: string): string {
  return setCookie.split(";")[0]!;
}

/** The inquiry fee, as the admin sets it. */
export async function setFeeCents(cents: number): Promise<void> {
  await setInquiryFee(cents);
}

/** What the admin chose for an owner who stays silent past the reply window. */
export async function setSilencePolicyTo(policy: SilencePolicy): Promise<void> {
  await setSilencePolicy(policy);
}

/**
 * A buyer's inquiry about `domain`, paid with the test provider's card (the fee in force; a free inquiry
 * when the fee is 0), then `messages` posted in its conversation in turn. Returns the inquiry as stored.
 */
export async function createPaidInquiry(
  domain: Domain,
  options: {
    buyer?: Partial<typeof BUYER>;
    clientAddress?: string;
    messages?: Array<{ author: "buyer" | "owner"; text: string }>;
  } = {},
): Promise<Inquiry> {
  const started = await startInquiry(options.clientAddress ?? "127.0.0.1", domain, { ...BUYER, ...options.buyer });
  if (started.kind === "invalid") throw new Error(`the inquiry was refused (${started.status}): ${started.message}`);
  let inquiry = started.inquiry;
  if (started.kind === "created") {
    const payment = await createPaymentForInquiry(inquiry);
    const confirmed = await getTestProvider().confirmWithCard(payment.clientSecret, GOOD_CARD);
    if (!confirmed.ok) throw new Error("the test card was declined");
    const fulfilled = await fulfilPayment(getPaymentProvider("test"), { paymentId: payment.paymentId });
    if (!fulfilled.ok) throw new Error(`the payment was not recorded: ${fulfilled.message}`);
  }
  for (const message of options.messages ?? []) {
    const current = (await findInquiryByPublicId(inquiry.public_id))!;
    const author =
      message.author === "buyer"
        ? ({ author: "buyer", via: "page" } as const)
        : ({ author: "owner", via: "page" } as const);
    const posted = await postInquiryMessage(current, author, message.text);
    if (!posted.ok) throw new Error(`the ${message.author}'s message was refused: ${JSON.stringify(posted)}`);
  }
  inquiry = (await findInquiryByPublicId(inquiry.public_id))!;
  return inquiry;
}

/**
 * `views` visits of a domain's page by a browser `daysAgo` days ago, counted and written as the page counts
 * them (recordDomainView, then the flush); the test's clock is moved back for them and set again after.
 */
export async function recordViews(
  clock: { offsetMs: number; set(offsetMs: number): void },
  domainId: number,
  views: number,
  daysAgo = 0,
): Promise<void> {
  const offset = clock.offsetMs;
  clock.set(offset - daysAgo * 24 * 60 * 60 * 1000);
  try {
    const visit = requestFor(`/domain/${domainId}`, { headers: { "User-Agent": BROWSER_USER_AGENT } });
    for (let view = 0; view < views; view++) recordDomainView(domainId, visit);
  } finally {
    clock.set(offset);
  }
  await flushDomainViews();
}

/** The newest deal made from inquiry `inquiryId` (an accepted offer), as stored; undefined when none. */
export function dealOfInquiry(inquiryId: number): Promise<Deal | undefined> {
  return db
    .selectFrom("deals")
    .selectAll()
    .where("inquiry_id", "=", inquiryId)
    .orderBy("id", "desc")
    .executeTakeFirst();
}

/**
 * A buy now on `domain` as a browser without JavaScript makes it: the form, then (unless `pay` is false)
 * the test checkout paid with GOOD_CARD and the return to the deal page. Returns the deal as stored,
 * `paid` (or `checkout` when not paid); anything else throws.
 */
export async function buyNow(
  domain: { id: number; short: string },
  options: { pay?: boolean; buyer?: { name: string; email: string } } = {},
): Promise<Deal> {
  const pay = options.pay ?? true;
  const buyer = options.buyer ?? BUYER;
  const started = await render(`/buy/${domain.short}`, { form: { name: buyer.name, email: buyer.email } });
  if (started.status !== 303) throw new Error(`buy now answered ${started.status}`);
  if (pay) {
    const card = { card_number: GOOD_CARD.number, expiry: GOOD_CARD.expiry, cvc: GOOD_CARD.cvc };
    const paid = await render(started.location!, { form: card });
    const back = new URL(paid.location!);
    await render(back.pathname + back.search);
  }
  const deal = await db
    .selectFrom("deals")
    .selectAll()
    .where("domain_id", "=", domain.id)
    .orderBy("id", "desc")
    .executeTakeFirstOrThrow();
  if (deal.status !== (pay ? "paid" : "checkout")) throw new Error(`the deal is ${deal.status}`);
  return deal;
}
