import { describe, expect, it } from "vitest";
import { db } from "../../app/server/db/database.server";
import { liveDomainTotals } from "../../app/server/catalog/domains.server";
import { dealPagePath, findDealByPublicId } from "../../app/server/sale/deals.server";
import { BUYER, createDomain, GOOD_CARD } from "../support/factories";
import { render } from "../support/in-process/document";
import { DAY_MS, useTestClock } from "../support/in-process/clock";
import { runReconcilePass } from "../../app/server/payments/reconciler.server";
import { sentMail } from "../support/in-process/mail";

// Buy now through to "Completed" (issue 37 items 1, 3, 4), with the embedded test provider, as a browser
// without JavaScript sends it: forms, 303s, the hosted checkout page.
const BUY_NOW_CENTS = 1_250_000;
const clock = useTestClock();
const card = { card_number: GOOD_CARD.number, expiry: GOOD_CARD.expiry, cvc: GOOD_CARD.cvc };

async function domainWithBuyNow(cents: number | null = BUY_NOW_CENTS) {
  return createDomain({ prefix: "buynow", priceCents: 1_500_000, buyNowCents: cents ?? undefined });
}

const dealsOf = (domainId: number) => db.selectFrom("deals").selectAll().where("domain_id", "=", domainId).execute();

/**
 * How the catalog shows a name: the browse search's count for it and whether it links to the name's page,
 * and whether the sitemap (one list, or an index of parts) has the page.
 */
async function catalogMentions(domain: { domain_name: string; short: string }) {
  const page = `/domain/${domain.short}`;
  const search = (await render(`/?q=${encodeURIComponent(domain.domain_name)}`)).body;
  const count = /(\d+ names?)(?:<!-- -->)? matching/.exec(search)?.[1];
  const sitemap = (await render("/sitemap.xml")).body;
  const parts = [...sitemap.matchAll(/<loc>[^<]*(\/sitemaps\/[^<]+)<\/loc>/g)].map((match) => match[1]!);
  const lists = [sitemap, ...(await Promise.all(parts.map(async (part) => (await render(part)).body)))];
  return {
    search: count,
    linked: search.includes(`href="${page}"`),
    sitemap: lists.some((list) => list.includes(`${page}</loc>`)),
  };
}

/** Starts a buy now and pays its checkout; returns the buyer's deal page path (after the return). */
async function buyAndPay(short: string, buyer = BUYER) {
  const started = await render(`/buy/${short}`, { form: { name: buyer.name, email: buyer.email } });
  expect(started.status).toBe(303);
  const paid = await render(started.location!, { form: card });
  expect(paid.status).toBe(303);
  const back = new URL(paid.location!);
  const returned = await render(back.pathname + back.search);
  expect(returned.status).toBe(303);
  return { checkoutPath: started.location!, returnPath: back.pathname + back.search, dealPath: returned.location! };
}

describe("buy now", () => {
  it("shows the button, takes name and email, charges the server's price once, and the name is sold", async () => {
    const domain = await domainWithBuyNow();
    const before = await liveDomainTotals();
    expect(await catalogMentions(domain)).toEqual({ search: "1 name", linked: true, sitemap: true });
    const page = await render(`/domain/${domain.short}`);
    expect(page.body).toContain("Buy now for $12,500");
    expect(page.body).toContain(`href="/buy/${domain.short}"`);

    const form = await render(`/buy/${domain.short}`);
    expect(form.status).toBe(200);
    expect(form.headers.get("cache-control")).toBe("no-store");
    for (const text of ["Full Name", "Email Address", "Pay $12,500"]) expect(form.body).toContain(text);

    const missing = await render(`/buy/${domain.short}`, { form: { name: "", email: "not-an-email" } });
    expect(missing.status).toBe(400);
    expect(missing.body).toContain("Please fill in all required fields");
    const badEmail = await render(`/buy/${domain.short}`, { form: { name: "Ann", email: "not-an-email" } });
    expect(badEmail.status).toBe(400);
    expect(badEmail.body).toContain("Please enter a valid email address");
    expect(badEmail.body).toContain('value="Ann"');
    expect(await dealsOf(domain.id)).toHaveLength(0);

    // An amount in the form is ignored: the server's buy now price is charged.
    const started = await render(`/buy/${domain.short}`, {
      form: { name: BUYER.name, email: BUYER.email, amount: "1" },
    });
    expect(started.status).toBe(303);
    expect(started.location).toMatch(/^\/test-checkout\/tcs_/);
    const checkout = await render(started.location!);
    expect(checkout.body).toContain("Purchase of");
    expect(checkout.body).toContain("$12,500");
    const [deal] = await dealsOf(domain.id);
    expect(deal).toMatchObject({ status: "checkout", price_cents: BUY_NOW_CENTS, amount_due_cents: BUY_NOW_CENTS });
    // Started but not paid: the name stays on sale.
    expect((await render(`/domain/${domain.short}`)).body).toContain("Buy now for $12,500");

    const paid = await render(started.location!, { form: card });
    const back = new URL(paid.location!);
    expect(back.pathname).toBe(`/deal/${deal!.public_id}`);
    // The return, reloaded and raced: one payment counted, one set of emails.
    const returns = await Promise.all([1, 2, 3].map(() => render(back.pathname + back.search)));
    for (const each of returns) expect(each.status).toBe(303);
    const dealPath = returns[0]!.location!;
    const after = await findDealByPublicId(deal!.public_id);
    expect(after).toMatchObject({ status: "paid", amount_due_cents: BUY_NOW_CENTS });
    expect(after!.transfer_due_at).toBeTruthy();

    const buyerPage = await render(dealPath);
    expect(buyerPage.status).toBe(200);
    expect(buyerPage.headers.get("referrer-policy")).toBe("no-referrer");
    expect(buyerPage.body).toContain(`Your purchase of ${domain.domain_name}`);
    expect(buyerPage.body).toContain("Paid: waiting for the transfer details");
    expect(buyerPage.body).toContain('content="noindex"');

    // Sold: its page says so, with names like it; it leaves the catalog and the totals.
    const sold = await render(`/domain/${domain.short}`);
    expect(sold.status).toBe(200);
    expect(sold.body).toContain("has been sold");
    expect(sold.body).not.toContain("Buy now for");
    expect(sold.body).toContain('href="/#domains"');
    // Its own lander (the name still pointed at this server) says so too, not the operator's splash.
    const lander = await render("/", { headers: { Host: domain.domain_name } });
    expect(lander.status).toBe(200);
    expect(lander.body).toContain("has been sold");
    expect(lander.body).toContain(`<title>${domain.domain_name} has been sold`);
    expect(lander.body).not.toContain("Premium Domain Acquisitions");
    expect(lander.body).not.toContain('href="/#domains"');
    const totals = await liveDomainTotals();
    expect(totals.count).toBe(before.count - 1);
    expect(totals.valueCents).toBe(before.valueCents - 1_500_000);
    expect(await catalogMentions(domain)).toEqual({ search: "0 names", linked: false, sitemap: false });
    expect((await render(`/buy/${domain.short}`)).status).toBe(404);

    const mails = (await sentMail()).filter((mail) => mail.raw.includes(domain.domain_name));
    expect(mails.filter((mail) => mail.raw.includes("-deal_paid_buyer@"))).toHaveLength(1);
    const ownerMail = mails.filter((mail) => mail.raw.includes("-deal_paid_owner@"));
    expect(ownerMail).toHaveLength(1);
    expect(ownerMail[0]!.raw).toContain("has been sold for $12,500");
  });

  it("hands the transfer over: the code only on the buyer's page, then Completed", async () => {
    const domain = await domainWithBuyNow();
    const { dealPath } = await buyAndPay(domain.short);
    const publicId = new URL(dealPath, "http://x").pathname.split("/")[2]!;
    const ownerMail = (await sentMail()).find(
      (mail) => mail.raw.includes("-deal_paid_owner@") && mail.raw.includes(publicId),
    );
    // The owner's email carries their own signed link.
    const ownerPath = dealPagePath("owner", publicId);
    expect(ownerMail!.raw.replace(/=\r?\n/g, "")).toContain(`/deal/${publicId}/owner?sig`);
    // The buyer's link does not open the owner's page.
    expect((await render(dealPath.replace(`/deal/${publicId}`, `/deal/${publicId}/owner`))).status).toBe(404);
    expect((await render(`/deal/${publicId}?sig=${"A".repeat(43)}`)).status).toBe(404);

    const ownerPage = await render(ownerPath);
    expect(ownerPage.body).toContain("Authorization code");
    expect(ownerPage.body).toContain("Send transfer details");
    expect(ownerPage.body).toContain(BUYER.email);

    // Not yet sent: the buyer cannot confirm.
    const early = await render(dealPath, { form: { intent: "received" } });
    expect(early.status).toBe(409);
    expect(early.body).toContain("The owner has not sent the transfer details yet.");

    const empty = await render(ownerPath, { form: { intent: "send-transfer", authCode: "", transferNote: "" } });
    expect(empty.status).toBe(400);
    expect(empty.body).toContain("Please give the authorization code or a note");

    const sent = await render(ownerPath, {
      form: { intent: "send-transfer", authCode: "Xy7#-secret-EPP", transferNote: "" },
    });
    expect(sent.status).toBe(303);
    expect((await render(sent.location!)).body).toContain("The transfer details were sent to the buyer.");
    const again = await render(ownerPath, { form: { intent: "send-transfer", authCode: "other", transferNote: "" } });
    expect(again.status).toBe(409);

    // Stored encrypted; shown on the buyer's page only; never in an email.
    const stored = await findDealByPublicId(publicId);
    expect(stored!.transfer_code).not.toContain("Xy7#-secret-EPP");
    expect((await render(ownerPath)).body).not.toContain("Xy7#-secret-EPP");
    const buyerPage = await render(dealPath);
    expect(buyerPage.body).toContain("Xy7#-secret-EPP");
    expect(buyerPage.body).toContain("I have received the domain");
    for (const mail of await sentMail()) expect(mail.raw).not.toContain("Xy7#-secret-EPP");
    expect(
      (await sentMail()).some(
        (mail) => mail.raw.includes("-deal_transfer_sent@") && mail.raw.includes(domain.domain_name),
      ),
    ).toBe(true);

    const done = await render(dealPath, { form: { intent: "received" } });
    expect(done.status).toBe(303);
    const completed = await render(done.location!);
    expect(completed.body).toContain("Completed");
    expect(completed.body).toContain("Thank you: the sale is completed.");
    expect((await findDealByPublicId(publicId))!.status).toBe("completed");
    expect(
      (await sentMail()).some((mail) => mail.raw.includes("-deal_completed@") && mail.raw.includes(domain.domain_name)),
    ).toBe(true);
  });

  it("two sends of the transfer details, or two confirmations, at once: the second is told what happened", async () => {
    const domain = await domainWithBuyNow();
    const { dealPath } = await buyAndPay(domain.short);
    const publicId = new URL(dealPath, "http://x").pathname.split("/")[2]!;
    const ownerPath = dealPagePath("owner", publicId);
    const send = () =>
      render(ownerPath, { form: { intent: "send-transfer", authCode: "CODE-TWICE", transferNote: "" } });
    const sends = await Promise.all([send(), send()]);
    expect(sends.map((answer) => answer.status).sort()).toEqual([303, 409]);
    expect(sends.find((answer) => answer.status === 409)!.body).toContain("The transfer details were already sent.");

    const confirm = () => render(dealPath, { form: { intent: "received" } });
    const confirms = await Promise.all([confirm(), confirm()]);
    expect(confirms.map((answer) => answer.status).sort()).toEqual([303, 409]);
    expect(confirms.find((answer) => answer.status === 409)!.body).toContain("This sale is already completed.");
    const completedMail = (await sentMail()).filter(
      (mail) => mail.raw.includes("-deal_completed@") && mail.raw.includes(domain.domain_name),
    );
    expect(completedMail.length).toBeGreaterThan(0);
    expect(new Set(completedMail.map((mail) => mail.raw.match(/^To: .*$/m)?.[0])).size).toBe(completedMail.length);
  });

  it("sells a name once: a second buyer's payment is refused and refunded", async () => {
    const domain = await domainWithBuyNow();
    const first = await render(`/buy/${domain.short}`, { form: { name: "First Buyer", email: "first@example.test" } });
    const second = await render(`/buy/${domain.short}`, {
      form: { name: "Second Buyer", email: "second@example.test" },
    });
    const [paidFirst, paidSecond] = [
      await render(first.location!, { form: card }),
      await render(second.location!, { form: card }),
    ];
    const returnOf = (page: { location: string | null }) => {
      const url = new URL(page.location!);
      return url.pathname + url.search;
    };
    await Promise.all([render(returnOf(paidFirst)), render(returnOf(paidSecond))]);
    const deals = await dealsOf(domain.id);
    expect(deals.map((deal) => deal.status).sort()).toEqual(["lost", "paid"]);
    const lost = deals.find((deal) => deal.status === "lost")!;
    const lostPage = await render(returnOf(lost.buyer_email === "first@example.test" ? paidFirst : paidSecond));
    const lostView = await render(lostPage.location!);
    expect(lostView.body).toContain("This name was sold to another buyer just before your payment.");
    const stray = await db
      .selectFrom("stray_payments")
      .selectAll()
      .where("payment_id", "=", lost.payment_id!)
      .executeTakeFirst();
    expect(stray?.state).toBe("refunded");
  });

  it("takes no buy now for a name without a price", async () => {
    const domain = await domainWithBuyNow(null);
    expect((await render(`/domain/${domain.short}`)).body).not.toContain("Buy now for");
    const refused = await render(`/buy/${domain.short}`, { form: { name: BUYER.name, email: BUYER.email } });
    expect(refused.status).toBe(409);
    expect(refused.body).toContain("This name has no buy now price");
    expect(await dealsOf(domain.id)).toHaveLength(0);
  });

  it("a buy now left unpaid for a day expires: its checkout is closed", async () => {
    const domain = await domainWithBuyNow();
    const started = await render(`/buy/${domain.short}`, { form: { name: BUYER.name, email: BUYER.email } });
    clock.advance(2 * DAY_MS);
    await runReconcilePass();
    const [deal] = await dealsOf(domain.id);
    expect(deal!.status).toBe("expired");
    const closed = await render(started.location!);
    expect(closed.body).toContain("This payment can no longer be completed.");
    // The name is still on sale.
    expect((await render(`/domain/${domain.short}`)).body).toContain("Buy now for $12,500");
  });
});
