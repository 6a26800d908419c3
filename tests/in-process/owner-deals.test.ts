import { beforeAll, describe, expect, it } from "vitest";
import { updateOwnerPrices } from "../../app/server/owners/owner-desk.server";
import { inquiryPagePath } from "../../app/server/inquiries/signed-links.server";
import { dealPagePath } from "../../app/server/sale/deals.server";
import { buyNow, createDomain, createPaidInquiry, setFeeCents, signInOwner } from "../support/factories";
import { useTestClock } from "../support/in-process/clock";
import { render } from "../support/in-process/document";
import { visibleText, withoutSpans } from "../support/visible-text";

// The owner's desk lists the owner's deals (issue 37 item 5): newest first, with price, fee credited,
// amount paid, status and a link to the owner's deal page; never a buy now left unpaid, never another
// owner's deal.
const clock = useTestClock();
const ALICE = "alice-deals@owners.example";
const BOB = "bob-deals@owners.example";
const CAROL = "carol-deals@owners.example";
const names = { older: "", newer: "", unpaid: "", bob: "", offer: "" };
let newerDeal = "";

/** A buy now started on the name; paid through the test checkout when `pay`. Returns the deal's public id. */
async function buyNowOf(domain: { id: number; short: string }, pay: boolean): Promise<string> {
  return (await buyNow(domain, { pay })).public_id;
}

async function desk(email: string) {
  const page = await render("/owner", { cookie: await signInOwner(email) });
  expect(page.status).toBe(200);
  const section = /aria-labelledby="owner-deals-heading"[\s\S]*?<\/section>/.exec(page.body)?.[0] ?? "";
  return { body: page.body, section, text: visibleText(withoutSpans(section)) };
}

beforeAll(async () => {
  // Alice's older name is stored with capitals and spaces, as imported before the form's rules: still hers.
  const older = await createDomain({
    prefix: "olderdeal",
    priceCents: 300_000,
    storedOwnerEmail: `  ${ALICE.toUpperCase()} `,
  });
  await updateOwnerPrices(ALICE, older.id, {
    askingPriceCents: 300_000,
    minOfferCents: null,
    buyNowCents: 250_000,
    autoAcceptCents: null,
  });
  const newer = await createDomain({
    prefix: "newerdeal",
    priceCents: 900_000,
    buyNowCents: 720_050,
    ownerEmail: ALICE,
  });
  const unpaid = await createDomain({ prefix: "unpaiddeal", buyNowCents: 150_000, ownerEmail: ALICE });
  const bobs = await createDomain({ prefix: "bobdeal", buyNowCents: 480_000, ownerEmail: BOB });
  await createDomain({ prefix: "caroldeal", ownerEmail: CAROL });
  Object.assign(names, {
    older: older.domain_name,
    newer: newer.domain_name,
    unpaid: unpaid.domain_name,
    bob: bobs.domain_name,
  });
  await buyNowOf(older, true);
  clock.advance(60_000);
  newerDeal = await buyNowOf(newer, true);
  clock.advance(60_000);
  await buyNowOf(unpaid, false);
  await buyNowOf(bobs, true);
  // An offer the owner accepted: a deal agreed at $6,500 with the inquiry fee credited, not paid yet.
  await setFeeCents(1999);
  clock.advance(60_000);
  const offered = await createDomain({ prefix: "offerdeal", priceCents: 800_000, ownerEmail: ALICE });
  names.offer = offered.domain_name;
  const inquiry = await createPaidInquiry(offered);
  await render(inquiryPagePath("buyer", inquiry.public_id), { form: { intent: "send-offer", offerAmount: "6500" } });
  await render(inquiryPagePath("owner", inquiry.public_id), { form: { intent: "accept-offer" } });
});

describe("the owner's desk: Deals", () => {
  it("lists the owner's own paid deals, newest first, with their amounts and status", async () => {
    const { section, text } = await desk(ALICE);
    expect(text).toContain("Deals");
    expect(text).toContain(`${names.newer} $7,200.50 — $7,200.50 Paid: waiting for the transfer details`);
    expect(text).toContain(`${names.older} $2,500 — $2,500 Paid: waiting for the transfer details`);
    expect(text).toContain(`${names.offer} $6,500 -$19.99 — Deal agreed`);
    expect(text.indexOf(names.offer)).toBeLessThan(text.indexOf(names.newer));
    expect(text.indexOf(names.newer)).toBeLessThan(text.indexOf(names.older));
    // An unpaid buy now is an attempt, not a deal; Bob's sale is his.
    expect(text).not.toContain(names.unpaid);
    expect(text).not.toContain(names.bob);
    expect(section).toContain(`href="${dealPagePath("owner", newerDeal).replace(/&/g, "&amp;")}"`);
    expect(text).toContain(`Open the deal for ${names.newer}`);
  });

  it("opens the owner's deal page from the list and shows a completed sale as Completed", async () => {
    const { section } = await desk(ALICE);
    const row = new RegExp(`data-owner-deal="${names.newer}"[\\s\\S]*?</tr>`).exec(section)![0];
    const href = /href="(\/deal\/[^"]+\/owner\?sig=[^"]+)"/.exec(row)![1]!.replace(/&amp;/g, "&");
    const page = await render(href);
    expect(page.status).toBe(200);
    expect(visibleText(withoutSpans(page.body))).toContain(`Sale of ${names.newer}`);
    await render(href, { form: { intent: "send-transfer", authCode: "CODE-9", transferNote: "" } });
    await render(dealPagePath("buyer", newerDeal), { form: { intent: "received" } });
    expect((await desk(ALICE)).text).toContain(`${names.newer} $7,200.50 — $7,200.50 Completed`);
  });

  it("shows another owner only their own deals, and an owner without deals an empty state", async () => {
    const bob = await desk(BOB);
    expect(bob.text).toContain(names.bob);
    expect(bob.text).not.toContain(names.newer);
    expect(bob.text).not.toContain(names.older);
    const carol = await desk(CAROL);
    expect(carol.text).toContain("No deals yet");
    expect(carol.section).not.toContain("/deal/");
  });
});
