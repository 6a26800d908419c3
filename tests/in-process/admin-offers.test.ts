import { beforeAll, describe, expect, it } from "vitest";
import { inquiryPagePath } from "../../app/server/inquiries/signed-links.server";
import {
  createAdmin,
  createDomain,
  createPaidInquiry,
  dealOfInquiry,
  setFeeCents,
  type TestAdmin,
} from "../support/factories";
import { render } from "../support/in-process/document";

// The admin answers a buyer's offer as the owner from the inbox's card (issue 37 item 2).
let admin: TestAdmin;
beforeAll(async () => {
  admin = await createAdmin();
  await setFeeCents(1999);
});

async function offered(amount: string) {
  const domain = await createDomain({ prefix: "inboxoffer", priceCents: 600_000 });
  const inquiry = await createPaidInquiry(domain);
  const buyerPage = inquiryPagePath("buyer", inquiry.public_id);
  expect((await render(buyerPage, { form: { intent: "send-offer", offerAmount: amount } })).status).toBe(303);
  return { domain, inquiry, buyerPage };
}
const inbox = (form?: Record<string, string>) =>
  render("/admin/inquiries", { cookie: admin.cookie, form: form && { returnTo: "/admin/inquiries", ...form } });

describe("offers in the admin's inbox", () => {
  it("shows the open offer; a counter with a bad amount is refused and kept; a counter and an accept go through", async () => {
    const { inquiry, buyerPage } = await offered("3000");
    const page = await inbox();
    expect(page.body).toContain("The buyer&#x27;s offer: $3,000");
    for (const text of ["Accept offer", "Counter-offer (USD)", "Decline"]) expect(page.body).toContain(text);

    const bad = await inbox({ intent: "counter-offer", id: String(inquiry.id), counterAmount: "lots" });
    expect(bad.status).toBe(400);
    expect(bad.body).toContain("Enter the offer as an amount in US dollars");
    expect(bad.body).toContain('value="lots"');

    const countered = await inbox({ intent: "counter-offer", id: String(inquiry.id), counterAmount: "4500" });
    expect(countered.status).toBe(303);
    expect((await render(countered.location!, { cookie: admin.cookie })).body).toContain(
      "Your counter-offer was sent.",
    );
    const buyer = await render(buyerPage);
    expect(buyer.body).toContain("Counter-offer: $4,500");
    expect(buyer.body).toContain("The owner&#x27;s offer: $4,500");

    // The buyer offers again; the admin accepts it: a deal, shown on the card.
    await render(buyerPage, { form: { intent: "send-offer", offerAmount: "4000" } });
    const accepted = await inbox({ intent: "accept-offer", id: String(inquiry.id) });
    expect(accepted.status).toBe(303);
    const deal = await dealOfInquiry(inquiry.id);
    expect(deal).toMatchObject({ status: "agreed", price_cents: 400_000 });
    expect((await inbox()).body).toContain("Deal: Deal agreed ($4,000)");
  });

  it("an answer without an open offer is refused with a message", async () => {
    const { inquiry } = await offered("3000");
    await inbox({ intent: "decline-offer", id: String(inquiry.id) });
    const again = await inbox({ intent: "decline-offer", id: String(inquiry.id) });
    expect(again.status).toBe(409);
    expect(again.body).toContain("This offer is no longer open");
  });
});
