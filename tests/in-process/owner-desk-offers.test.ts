import { beforeAll, describe, expect, it } from "vitest";
import { inquiryPagePath } from "../../app/server/inquiries/signed-links.server";
import { createDomain, createPaidInquiry, dealOfInquiry, setFeeCents, signInOwner } from "../support/factories";
import { render } from "../support/in-process/document";

// The owner answers a buyer's offer from the desk (issue 37 item 2): only on their own inquiries.
beforeAll(async () => {
  await setFeeCents(1999);
});

async function offered(owner: string, amount: string) {
  const domain = await createDomain({ prefix: "deskoffer", priceCents: 600_000, ownerEmail: owner });
  const inquiry = await createPaidInquiry(domain);
  const buyerPage = inquiryPagePath("buyer", inquiry.public_id);
  expect((await render(buyerPage, { form: { intent: "send-offer", offerAmount: amount } })).status).toBe(303);
  return { inquiry, buyerPage };
}

describe("offers on the owner's desk", () => {
  it("shows the buyer's open offer and takes a counter and an accept; another owner gets a 404", async () => {
    const owner = `desk-offers-${Date.now()}@example.test`;
    const { inquiry, buyerPage } = await offered(owner, "2500");
    const cookie = await signInOwner(owner);
    const desk = await render("/owner", { cookie });
    expect(desk.body).toContain("The buyer&#x27;s offer: $2,500");

    const bad = await render("/owner", {
      cookie,
      form: { intent: "counter-offer", id: String(inquiry.id), counterAmount: "0" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toContain("An offer must be more than $0.");

    const stranger = await signInOwner(`someone-else-${Date.now()}@example.test`);
    const refused = await render("/owner", {
      cookie: stranger,
      form: { intent: "accept-offer", id: String(inquiry.id) },
    });
    expect(refused.status).toBe(404);

    const countered = await render("/owner", {
      cookie,
      form: { intent: "counter-offer", id: String(inquiry.id), counterAmount: "3200" },
    });
    expect(countered.status).toBe(303);
    expect((await render(countered.location!, { cookie })).body).toContain("Your counter-offer was sent.");
    expect((await render(buyerPage)).body).toContain("Counter-offer: $3,200");

    await render(buyerPage, { form: { intent: "send-offer", offerAmount: "3000" } });
    const accepted = await render("/owner", { cookie, form: { intent: "accept-offer", id: String(inquiry.id) } });
    expect(accepted.status).toBe(303);
    const deal = await dealOfInquiry(inquiry.id);
    expect(deal).toMatchObject({ status: "agreed", price_cents: 300_000 });
  });
});
