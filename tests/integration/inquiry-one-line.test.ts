import { describe, expect, it } from "vitest";
import { useAppServer } from "../support/vitest-server";
import { insertDomain, uniqueDomainName } from "../support/data";
import { BUYER, postForm, postJson, waitFor } from "../support/http";

// Your Offer, Full Name and Phone are one line each: a buyer cannot put a paragraph of their own (a
// fake "From the site:" notice, say) into the owner's email above the message.
const app = useAppServer();

const BREAKS = { LF: "\n", CR: "\r", CRLF: "\r\n", VT: "\v", FF: "\f", NEL: "\u0085", LS: "\u2028", PS: "\u2029" };
const INJECTED = "5000\n\nFrom the site: urgent, the owner must answer today.";

function newDomain() {
  const name = uniqueDomainName("oneline");
  const id = insertDomain(app.db(), { name, priceCents: 500_000 });
  return { id, short: name.replace(/\.com$/, "") };
}
const inquiryCount = (domainId: number) =>
  (app.db().prepare("SELECT count(*) AS n FROM inquiries WHERE domain_id = ?").get(domainId) as { n: number }).n;

describe("one-line fields of the inquiry form", () => {
  it("refuses an offer with a line break next to the field, keeping what was typed (no JavaScript)", async () => {
    const domain = newDomain();
    const reply = await postForm(app, `/payment/${domain.short}`, { intent: "inquiry", ...BUYER, offer: INJECTED });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatch(/<p id="inquiry-offer-error"[^>]*>Your Offer must be one line<\/p>/);
    expect(reply.body).toMatch(/<input[^>]*aria-invalid="true"[^>]*aria-describedby="inquiry-offer-error"/);
    expect(reply.body).toContain("From the site: urgent, the owner must answer today.");
    expect(inquiryCount(domain.id)).toBe(0);
  });

  it("refuses every kind of line break in Your Offer, Full Name and Phone, with the field's message", async () => {
    const domain = newDomain();
    const cases = [
      ["offer", "Your Offer must be one line", (br: string) => `5000${br}From the site: urgent`],
      ["name", "Full Name must be one line", (br: string) => `Ada${br}From the site: urgent`],
      ["phone", "Phone must be one line", (br: string) => `+1 555${br}${br}0100`],
    ] as const;
    for (const [field, message, value] of cases) {
      for (const [label, br] of Object.entries(BREAKS)) {
        const customer = { ...BUYER, [field]: value(br) };
        const answer = await postJson(app, "/api/create-payment-intent", {
          domain_name: domain.short,
          customer_info: customer,
        });
        expect(answer.status, `${field} ${label}`).toBe(400);
        expect(answer.json.field_errors?.[field], `${field} ${label}`).toBe(message);
      }
    }
    expect(inquiryCount(domain.id)).toBe(0);
  });

  it("still takes one-line values, and writes an offer stored with a line break on one line of the owner's email", async () => {
    const domain = newDomain();
    const created = await postJson(app, "/api/create-payment-intent", {
      domain_name: domain.short,
      customer_info: { ...BUYER, offer: "  $12,500 or best offer  " },
    });
    expect(created.status).toBe(200);
    // A row saved before line breaks were refused.
    app
      .db()
      .prepare("UPDATE inquiries SET offer = ?, phone = ? WHERE payment_intent_id = ?")
      .run(INJECTED, "+1 555\u20280100", created.json.payment_intent_id);
    await postJson(app, "/api/test-payments/confirm", {
      client_secret: created.json.client_secret,
      card_number: "4242424242424242",
      expiry: "12/40",
      cvc: "123",
    });
    const confirmed = await postJson(app, "/api/confirm-payment", {
      payment_intent_id: created.json.payment_intent_id,
      domain_name: domain.short,
      customer_info: BUYER,
    });
    expect(confirmed.json.ok).toBe(true);
    const text = await waitFor(
      () =>
        (
          app
            .db()
            .prepare(
              "SELECT text_body FROM outbox WHERE kind = 'owner_inquiry' AND inquiry_id IN (SELECT id FROM inquiries WHERE domain_id = ?)",
            )
            .get(domain.id) as { text_body: string } | undefined
        )?.text_body,
      10_000,
      "owner email",
    );
    const lines = text.split(/\r\n|[\n\r\v\f\u0085\u2028\u2029]/);
    expect(lines).toContain("Offer: 5000  From the site: urgent, the owner must answer today.");
    expect(lines).toContain("Phone: +1 555 0100");
    expect(lines.filter((line) => line.startsWith("From the site"))).toEqual([]);
  });
});
