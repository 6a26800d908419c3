import { describe, expect, it } from "vitest";
import { db } from "../../app/server/db/database.server";
import { BUYER, createDomain } from "../support/factories";
import { render } from "../support/in-process/document";

// Your Offer, Full Name and Phone are one line each: a buyer cannot put a paragraph of their own (a
// fake "From the site:" notice, say) into the owner's email above the message.
const BREAKS = { LF: "\n", CR: "\r", CRLF: "\r\n", VT: "\v", FF: "\f", NEL: "\u0085", LS: "\u2028", PS: "\u2029" };
const INJECTED = "5000\n\nFrom the site: urgent, the owner must answer today.";

const newDomain = () => createDomain({ prefix: "oneline", priceCents: 500_000 });
const inquiryCount = async (domainId: number) =>
  Number(
    (
      await db
        .selectFrom("inquiries")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("domain_id", "=", domainId)
        .executeTakeFirstOrThrow()
    ).n,
  );
const postJson = async (path: string, json: unknown) => {
  const reply = await render(path, { json });
  return { status: reply.status, json: JSON.parse(reply.body) as Record<string, any> };
};

describe("one-line fields of the inquiry form", () => {
  it("refuses an offer with a line break next to the field, keeping what was typed (no JavaScript)", async () => {
    const domain = await newDomain();
    const reply = await render(`/payment/${domain.short}`, { form: { intent: "inquiry", ...BUYER, offer: INJECTED } });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatch(/<p id="inquiry-offer-error"[^>]*>Your Offer must be one line<\/p>/);
    expect(reply.body).toMatch(/<input[^>]*aria-invalid="true"[^>]*aria-describedby="inquiry-offer-error"/);
    expect(reply.body).toContain("From the site: urgent, the owner must answer today.");
    expect(await inquiryCount(domain.id)).toBe(0);
  });

  it("refuses every kind of line break in Your Offer, Full Name and Phone, with the field's message", async () => {
    const domain = await newDomain();
    const cases = [
      ["offer", "Your Offer must be one line", (br: string) => `5000${br}From the site: urgent`],
      ["name", "Full Name must be one line", (br: string) => `Ada${br}From the site: urgent`],
      ["phone", "Phone must be one line", (br: string) => `+1 555${br}${br}0100`],
    ] as const;
    for (const [field, message, value] of cases) {
      for (const [label, br] of Object.entries(BREAKS)) {
        const customer = { ...BUYER, [field]: value(br) };
        const answer = await postJson("/api/create-payment-intent", {
          domain_name: domain.short,
          customer_info: customer,
        });
        expect(answer.status, `${field} ${label}`).toBe(400);
        expect(answer.json.field_errors?.[field], `${field} ${label}`).toBe(message);
      }
    }
    expect(await inquiryCount(domain.id)).toBe(0);
  });

  it("still takes one-line values, and writes an offer stored with a line break on one line of the owner's email", async () => {
    const domain = await newDomain();
    const created = await postJson("/api/create-payment-intent", {
      domain_name: domain.short,
      customer_info: { ...BUYER, offer: "  $12,500 or best offer  " },
    });
    expect(created.status).toBe(200);
    // A row saved before line breaks were refused: no form takes it any more, so it is written here.
    await db
      .updateTable("inquiries")
      .set({ offer: INJECTED, phone: "+1 555\u20280100" })
      .where("payment_intent_id", "=", created.json.payment_intent_id)
      .execute();
    await postJson("/api/test-payments/confirm", {
      client_secret: created.json.client_secret,
      card_number: "4242424242424242",
      expiry: "12/40",
      cvc: "123",
    });
    const confirmed = await postJson("/api/confirm-payment", {
      payment_intent_id: created.json.payment_intent_id,
      domain_name: domain.short,
      customer_info: BUYER,
    });
    expect(confirmed.json.ok).toBe(true);
    const queued = await db
      .selectFrom("outbox")
      .innerJoin("inquiries", "inquiries.id", "outbox.inquiry_id")
      .select("outbox.text_body")
      .where("outbox.kind", "=", "owner_inquiry")
      .where("inquiries.domain_id", "=", domain.id)
      .executeTakeFirst();
    expect(queued, "owner email").toBeDefined();
    const lines = queued!.text_body.split(/\r\n|[\n\r\v\f\u0085\u2028\u2029]/);
    expect(lines).toContain("Offer: 5000  From the site: urgent, the owner must answer today.");
    expect(lines).toContain("Phone: +1 555 0100");
    expect(lines.filter((line) => line.startsWith("From the site"))).toEqual([]);
  });
});
