import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../../app/server/db/database.server";
import { findInquiryByPublicId } from "../../app/server/inquiries/inquiries.server";
import { inquiryPagePath } from "../../app/server/inquiries/signed-links.server";
import { runReconcilePass } from "../../app/server/payments/reconciler.server";
import { refundInquiry } from "../../app/server/refunds/refunds.server";
import { getSilencePolicy } from "../../app/server/inquiries/refund-promise.server";
import { runRefundPass } from "../../app/server/refunds/auto-refund.server";
import {
  GOOD_CARD,
  buyNow,
  createDomain,
  createPaidInquiry,
  dealOfInquiry,
  setFeeCents,
  setSilencePolicyTo,
} from "../support/factories";
import { DAY_MS, useTestClock } from "../support/in-process/clock";
import { render } from "../support/in-process/document";
import { sentMail } from "../support/in-process/mail";

// Offers in the conversation through to a paid deal (issue 37 items 2 and 3), as a browser without
// JavaScript: forms on the buyer's and the owner's inquiry pages, 303s, the test provider's checkout.
const clock = useTestClock();
beforeAll(async () => {
  await setFeeCents(1999);
});

async function setUp(
  options: { minOfferCents?: number; autoAcceptCents?: number; buyNowCents?: number; ownerReplied?: boolean } = {},
) {
  const domain = await createDomain({
    prefix: "offer",
    priceCents: 800_000,
    minOfferCents: options.minOfferCents,
    autoAcceptCents: options.autoAcceptCents,
    buyNowCents: options.buyNowCents,
  });
  const inquiry = await createPaidInquiry(domain, {
    messages: options.ownerReplied ? [{ author: "owner", text: "Thanks, let's talk." }] : [],
  });
  return {
    domain,
    inquiry,
    buyerPage: inquiryPagePath("buyer", inquiry.public_id),
    ownerPage: inquiryPagePath("owner", inquiry.public_id),
  };
}

const post = async (path: string, form: Record<string, string>) => render(path, { form });
const follow = async (page: { status: number; location: string | null }) => {
  expect(page.status).toBe(303);
  return render(page.location!);
};
/** The buyer's deal page, as the inquiry page's "Pay $Y" form posts to it. */
const payFormPath = (body: string) => /action="([^"]*\/deal\/[^"]+)"/.exec(body)![1]!.replace(/&amp;/g, "&");
const saleState = async (domainId: number) =>
  (await db.selectFrom("domains").select("sale_state").where("id", "=", domainId).executeTakeFirstOrThrow()).sale_state;

describe("offers", () => {
  it("offer, counter-offer, acceptance, payment of the price less the fee, and Sold", async () => {
    const { domain, inquiry, buyerPage, ownerPage } = await setUp();
    const page = await render(buyerPage);
    for (const text of ["Make an offer", "Your offer (USD)", "Send offer"]) expect(page.body).toContain(text);

    const sent = await follow(await post(buyerPage, { intent: "send-offer", offerAmount: "5000" }));
    expect(sent.body).toContain("Your offer was sent.");
    expect(sent.body).toContain("Offer: $5,000");

    // The owner sees it with the three answers; answering counts as the owner's reply.
    const owner = await render(ownerPage);
    for (const text of ["The buyer&#x27;s offer: $5,000", "Accept offer", "Counter-offer (USD)", "Decline"])
      expect(owner.body).toContain(text);
    const countered = await follow(await post(ownerPage, { intent: "counter-offer", counterAmount: "6,500" }));
    expect(countered.body).toContain("Counter-offer: $6,500");
    expect((await findInquiryByPublicId(inquiry.public_id))!.answered_at).toBeTruthy();
    expect((await sentMail()).some((mail) => mail.raw.includes("Counter-offer: $6,500"))).toBe(true);

    // The buyer accepts the counter-offer: a deal at $6,500, the fee credited.
    const accepted = await follow(await post(buyerPage, { intent: "accept-offer" }));
    expect(accepted.body).toContain("Offer accepted: a deal is agreed.");
    expect(accepted.body).toContain("Deal agreed: $6,500");
    expect(accepted.body).toContain("Inquiry fee credited: -$19.99");
    expect(accepted.body).toContain("Pay $6,480.01");
    const deal = (await dealOfInquiry(inquiry.id))!;
    expect(deal).toMatchObject({
      status: "agreed",
      price_cents: 650_000,
      fee_credited_cents: 1999,
      amount_due_cents: 648_001,
    });
    expect(await saleState(domain.id)).toBe("under_offer");
    const domainPage = await render(`/domain/${domain.short}`);
    expect(domainPage.body).toContain("Under offer");
    // Accepting again (two tabs): refused, one deal.
    const again = await post(buyerPage, { intent: "accept-offer" });
    expect(again.status).toBe(409);
    expect(await db.selectFrom("deals").select("id").where("domain_id", "=", domain.id).execute()).toHaveLength(1);

    // "Pay $Y": the amount due is the server's; the checkout is paid and the name is sold.
    const dealPath = payFormPath(accepted.body);
    const checkout = await post(dealPath, { intent: "pay", amount: "1" });
    expect(checkout.status).toBe(303);
    expect((await render(checkout.location!)).body).toContain("$6,480.01");
    const paid = await post(checkout.location!, {
      card_number: GOOD_CARD.number,
      expiry: GOOD_CARD.expiry,
      cvc: GOOD_CARD.cvc,
    });
    const back = new URL(paid.location!);
    await follow(await render(back.pathname + back.search));
    expect((await dealOfInquiry(inquiry.id))!.status).toBe("paid");
    expect(await saleState(domain.id)).toBe("sold");
    expect((await render(`/domain/${domain.short}`)).body).toContain("has been sold");
  });

  it("refuses bad amounts with a message, keeping the text; declines below the minimum at once", async () => {
    const { buyerPage } = await setUp({ minOfferCents: 300_000 });
    for (const [typed, message] of [
      ["abc", "Enter the offer as an amount in US dollars"],
      ["0", "An offer must be more than $0."],
      ["-50", "An offer cannot be negative."],
      ["100000001", "An offer can be at most $100,000,000."],
    ]) {
      const refused = await post(buyerPage, { intent: "send-offer", offerAmount: typed! });
      expect(refused.status, typed).toBe(400);
      expect(refused.body).toContain(message!);
      expect(refused.body).toContain(`value="${typed}"`);
    }
    const below = await post(buyerPage, { intent: "send-offer", offerAmount: "2000" });
    expect(below.status).toBe(409);
    expect(below.body).toContain("below the owner&#x27;s minimum offer");
    expect((await render(buyerPage)).body).not.toContain("Offer: $2,000");
  });

  it("accepts automatically at or above the owner's setting; a decline leaves the name on sale", async () => {
    const auto = await setUp({ autoAcceptCents: 700_000 });
    const declined = await setUp();
    await follow(await post(declined.buyerPage, { intent: "send-offer", offerAmount: "4000" }));
    const answer = await follow(await post(declined.ownerPage, { intent: "decline-offer" }));
    expect(answer.body).toContain("Declined the offer of $4,000.");
    expect(await saleState(declined.domain.id)).toBeNull();

    const accepted = await follow(await post(auto.buyerPage, { intent: "send-offer", offerAmount: "7000" }));
    expect(accepted.body).toContain("Deal agreed: $7,000");
    expect(await saleState(auto.domain.id)).toBe("under_offer");
  });

  it("an offer accepted automatically is the owner's answer: the fee credited to the deal is not refunded too", async () => {
    const policyBefore = await getSilencePolicy();
    try {
      for (const policy of ["refund", "choose"] as const) {
        await setSilencePolicyTo(policy);
        const { domain, inquiry, buyerPage } = await setUp({ autoAcceptCents: 700_000 });
        // The offer comes two days after payment, so its deal is still payable past the reply deadline.
        clock.advance(2 * DAY_MS);
        const agreed = await follow(await post(buyerPage, { intent: "send-offer", offerAmount: "7000" }));
        expect(agreed.body).toContain("Inquiry fee credited: -$19.99");
        expect((await findInquiryByPublicId(inquiry.public_id))!.answered_via).toBe("auto_accept");

        clock.advance(5 * DAY_MS + 60_000);
        await runRefundPass(refundInquiry);
        const after = (await findInquiryByPublicId(inquiry.public_id))!;
        expect(after.status, policy).toBe("paid");
        expect(after.credited_at, policy).toBeNull();
        const told = (await sentMail()).filter(
          (mail) => mail.raw.includes(domain.domain_name) && /has been refunded|Refund or credit/.test(mail.raw),
        );
        expect(told, policy).toEqual([]);
        const buyer = await render(buyerPage);
        expect(buyer.body).not.toContain("Take a credit instead");
        // The admin's Refund is refused while the deal holds the fee as credit.
        const refused = await refundInquiry(inquiry.id);
        expect(refused.status).toBe("not-refundable");
        expect(JSON.stringify(refused)).toContain("credited against the price of this inquiry's deal");

        // The conversation stays open past the deadline: the buyer can still cancel the unpaid deal.
        const cancelled = await follow(await post(payFormPath(buyer.body), { intent: "cancel-deal" }));
        expect(cancelled.body).toContain("The deal is cancelled. The name is back on sale.");
      }
    } finally {
      await setSilencePolicyTo(policyBefore);
    }
  });

  it("offers accepted automatically do not count as the owner's reply time", async () => {
    const ownerEmail = `auto-${Date.now()}@owner.example`;
    const names = async () =>
      createDomain({ prefix: "autoreply", priceCents: 800_000, autoAcceptCents: 700_000, ownerEmail });
    for (let i = 0; i < 3; i++) {
      const inquiry = await createPaidInquiry(await names());
      const agreed = await follow(
        await post(inquiryPagePath("buyer", inquiry.public_id), { intent: "send-offer", offerAmount: "7000" }),
      );
      expect(agreed.body).toContain("Deal agreed: $7,000");
    }
    // Three answers of this owner would show their reply time; these three were the owner's rule, not a reply.
    const listed = await names();
    const page = await render(`/domain/${listed.short}`);
    expect(page.status).toBe(200);
    expect(page.body).not.toContain("Owner usually replies within");
  });

  it("a deal paid at the last moment by a buyer who closed the tab is recorded, not expired, and not paid twice", async () => {
    const payWithoutReturn = async (dealPath: string) => {
      const checkout = await post(dealPath, { intent: "pay" });
      expect(checkout.status).toBe(303);
      expect(checkout.location).toContain("/test-checkout/");
      const paid = await post(checkout.location!, {
        card_number: GOOD_CARD.number,
        expiry: GOOD_CARD.expiry,
        cvc: GOOD_CARD.cvc,
      });
      expect(paid.status).toBe(303);
    };
    const agree = async () => {
      const { domain, inquiry, buyerPage, ownerPage } = await setUp({ ownerReplied: true });
      await follow(await post(buyerPage, { intent: "send-offer", offerAmount: "5000" }));
      const accepted = await follow(await post(ownerPage, { intent: "accept-offer" }));
      expect(accepted.body).toContain("Deal agreed: $5,000");
      return { domain, inquiry, dealPath: payFormPath((await render(buyerPage)).body) };
    };

    // Paid an hour before the pay-by date, six days after the deal was agreed; the reconciler runs after it.
    const late = await agree();
    clock.advance(7 * DAY_MS - 60 * 60_000);
    await payWithoutReturn(late.dealPath);
    expect((await dealOfInquiry(late.inquiry.id))!.status).toBe("agreed");
    clock.advance(2 * 60 * 60_000);
    await runReconcilePass();
    expect((await dealOfInquiry(late.inquiry.id))!.status).toBe("paid");
    expect(await saleState(late.domain.id)).toBe("sold");

    // Paid, then "Pay" pressed again before anything recorded it: the page shows the payment, no new checkout.
    const twice = await agree();
    await payWithoutReturn(twice.dealPath);
    const checkoutId = (await dealOfInquiry(twice.inquiry.id))!.checkout_id;
    const again = await post(twice.dealPath, { intent: "pay" });
    expect(again.status).toBe(303);
    expect(again.location).not.toContain("/test-checkout/");
    const deal = (await dealOfInquiry(twice.inquiry.id))!;
    expect(deal.status).toBe("paid");
    expect(deal.checkout_id).toBe(checkoutId);
  });

  it("once the name has a new owner, offers on the inquiry sent to the earlier one are closed", async () => {
    const { domain, inquiry, buyerPage, ownerPage } = await setUp({ ownerReplied: true });
    await follow(await post(buyerPage, { intent: "send-offer", offerAmount: "5000" }));
    await db
      .updateTable("domains")
      .set({ owner_email: `new-${domain.id}@owner.example`, auto_accept_cents: 100_000 })
      .where("id", "=", domain.id)
      .execute();

    const owner = await render(ownerPage);
    expect(owner.body).toContain("new owner since this inquiry was sent, so offers here are closed");
    expect(owner.body).not.toContain("Accept offer");
    const accept = await post(ownerPage, { intent: "accept-offer" });
    expect(accept.status).toBe(409);
    expect(accept.body).toContain("new owner since this inquiry was sent");
    // Above the new owner's "Accept offers at or above": refused, not a deal for the earlier owner.
    const offer = await post(buyerPage, { intent: "send-offer", offerAmount: "6000" });
    expect(offer.status).toBe(409);
    expect(offer.body).toContain("new owner since this inquiry was sent");
    expect(await dealOfInquiry(inquiry.id)).toBeFalsy();
    expect(await saleState(domain.id)).toBeNull();
    // The conversation itself goes on.
    const reply = await follow(await post(ownerPage, { intent: "reply", message: "Sorry, I no longer own it." }));
    expect(reply.body).toContain("Sorry, I no longer own it.");
  });

  it("an offer expires after OFFER_DAYS; an unpaid deal expires after DEAL_PAY_DAYS and the name is back on sale", async () => {
    // The owner replied, so the inquiry stays open past its reply deadline.
    const { domain, inquiry, buyerPage, ownerPage } = await setUp({ ownerReplied: true });
    await follow(await post(buyerPage, { intent: "send-offer", offerAmount: "5000" }));
    clock.advance(8 * DAY_MS);
    expect((await render(ownerPage)).body).not.toContain("Accept offer");
    expect((await post(ownerPage, { intent: "accept-offer" })).status).toBe(409);

    await follow(await post(buyerPage, { intent: "send-offer", offerAmount: "5500" }));
    await follow(await post(ownerPage, { intent: "accept-offer" }));
    expect(await saleState(domain.id)).toBe("under_offer");
    clock.advance(8 * DAY_MS);
    await runReconcilePass();
    const deal = (await dealOfInquiry(inquiry.id))!;
    expect(deal.status).toBe("expired");
    expect(await saleState(domain.id)).toBeNull();
    // Both sides are told, once (a second pass sends nothing more).
    await runReconcilePass();
    const expiredMail = (await sentMail()).filter((mail) => mail.raw.includes(`Deal expired: ${domain.domain_name}`));
    expect(expiredMail.map((mail) => mail.to[0]).sort()).toEqual([deal.buyer_email, deal.owner_email].sort());
    expect(expiredMail[0]!.raw).toContain("The name is back on sale");
  });

  it("a new offer replaces the sender's open one; a sold name or a closed inquiry refuses offers, showing the amount typed", async () => {
    const { inquiry, buyerPage, ownerPage } = await setUp();
    await follow(await post(buyerPage, { intent: "send-offer", offerAmount: "5000" }));
    await follow(await post(buyerPage, { intent: "send-offer", offerAmount: "5200" }));
    const owner = await render(ownerPage);
    expect(owner.body).toContain("The buyer&#x27;s offer: $5,200");
    expect(owner.body).not.toContain("The buyer&#x27;s offer: $5,000");
    const offers = await db
      .selectFrom("offers")
      .select(["amount_cents", "status"])
      .where("inquiry_id", "=", inquiry.id)
      .orderBy("id")
      .execute();
    expect(offers).toEqual([
      { amount_cents: 500_000, status: "replaced" },
      { amount_cents: 520_000, status: "open" },
    ]);
    // Accepting answers the latest: a deal at $5,200.
    await follow(await post(ownerPage, { intent: "accept-offer" }));
    expect((await dealOfInquiry(inquiry.id))!.price_cents).toBe(520_000);

    // A name sold by buy now: the page offers nothing, and a posted offer is refused with the text kept.
    const sold = await setUp({ buyNowCents: 900_000 });
    await buyNow(sold.domain);
    const soldPage = await render(sold.buyerPage);
    expect(soldPage.body).toContain("This name has been sold.");
    expect(soldPage.body).not.toContain("Send offer");
    const onSold = await post(sold.buyerPage, { intent: "send-offer", offerAmount: "9500" });
    expect(onSold.status).toBe(409);
    expect(onSold.body).toContain("This name has been sold.");
    expect(onSold.body).toContain("Not sent: 9500");

    // A refunded (closed) inquiry: refused the same way.
    const closed = await setUp();
    expect((await refundInquiry(closed.inquiry.id)).status).toBe("refunded");
    const onClosed = await post(closed.buyerPage, { intent: "send-offer", offerAmount: "4100" });
    expect(onClosed.status).toBe(409);
    expect(onClosed.body).toContain("This inquiry is closed");
    expect(onClosed.body).toContain("Not sent: 4100");
  });

  it("either side cancels an unpaid deal; the conversation says so", async () => {
    const { domain, inquiry, buyerPage, ownerPage } = await setUp();
    await follow(await post(buyerPage, { intent: "send-offer", offerAmount: "5000" }));
    await follow(await post(ownerPage, { intent: "accept-offer" }));
    const ownerView = await render(ownerPage);
    const ownerDealPath = /href="([^"]*\/deal\/[^"]+\/owner[^"]*)"/.exec(ownerView.body)![1]!.replace(/&amp;/g, "&");
    const cancelled = await follow(await post(ownerDealPath, { intent: "cancel-deal" }));
    expect(cancelled.body).toContain("The deal is cancelled. The name is back on sale.");
    expect((await dealOfInquiry(inquiry.id))!.status).toBe("cancelled");
    expect(await saleState(domain.id)).toBeNull();
    expect((await render(buyerPage)).body).toContain("Cancelled the deal at $5,000.");
  });

  it("two accepts at once give one deal; a buy now paid after an accepted offer is refused and refunded", async () => {
    const { domain, inquiry, buyerPage, ownerPage } = await setUp({ buyNowCents: 900_000 });
    // A buy now started before the offer is accepted, paid after.
    const buyNow = await post(`/buy/${domain.short}`, { name: "Other Buyer", email: "other@example.test" });
    expect(buyNow.status).toBe(303);

    await follow(await post(buyerPage, { intent: "send-offer", offerAmount: "5000" }));
    const answers = await Promise.all([
      post(ownerPage, { intent: "accept-offer" }),
      post(ownerPage, { intent: "accept-offer" }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([303, 409]);
    expect(await db.selectFrom("deals").select("id").where("inquiry_id", "=", inquiry.id).execute()).toHaveLength(1);
    expect((await render(`/domain/${domain.short}`)).body).not.toContain("Buy now for");

    const paid = await post(buyNow.location!, {
      card_number: GOOD_CARD.number,
      expiry: GOOD_CARD.expiry,
      cvc: GOOD_CARD.cvc,
    });
    const back = new URL(paid.location!);
    const lost = await follow(await render(back.pathname + back.search));
    expect(lost.body).toContain("This name was sold to another buyer just before your payment.");
    const lostDeal = await db
      .selectFrom("deals")
      .selectAll()
      .where("domain_id", "=", domain.id)
      .where("origin", "=", "buy_now")
      .executeTakeFirstOrThrow();
    expect(lostDeal.status).toBe("lost");
    const stray = await db
      .selectFrom("stray_payments")
      .selectAll()
      .where("payment_id", "=", lostDeal.payment_id!)
      .executeTakeFirst();
    expect(stray?.state).toBe("refunded");
    expect((await dealOfInquiry(inquiry.id))!.status).toBe("agreed");
  });
});
