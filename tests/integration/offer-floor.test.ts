import { describe, expect, it } from "vitest";
import { useAppServer } from "../support/vitest-server";
import { insertDomain, uniqueDomainName } from "../support/data";
import { BUYER, postForm, postJson, request } from "../support/http";

// The owner's minimum offer: a warning before payment, never the amount itself.
const app = useAppServer();

const WARNING = "Offers below the owner&#x27;s minimum are usually declined";

function domainWithFloor(floorCents: number | null) {
  const name = uniqueDomainName("floor");
  const id = insertDomain(app.db(), { name, priceCents: 2_000_000 });
  app.db().prepare("UPDATE domains SET min_offer_cents = ? WHERE id = ?").run(floorCents, id);
  return { id, name, short: name.replace(/\.com$/, "") };
}
const inquiriesFor = (id: number) =>
  app.db().prepare("SELECT offer, status FROM inquiries WHERE domain_id = ? ORDER BY id").all(id) as {
    offer: string;
  }[];

describe("minimum offer without JavaScript", () => {
  it('re-renders the form with the amber warning and one "Send anyway" button, creating nothing', async () => {
    const domain = domainWithFloor(1_000_000);
    const reply = await postForm(app, `/payment/${domain.short}`, { intent: "inquiry", ...BUYER, offer: "$5,000" });
    expect(reply.status).toBe(409);
    expect(reply.body).toContain(WARNING);
    // One way on (issue #26 item 7): the form's only submit button sends the offer as it is.
    const buttons = reply.body.match(/<button type="submit"[^>]*>[^<]*<\/button>/g) ?? [];
    expect(buttons).toHaveLength(1);
    expect(buttons[0]).toMatch(/>Send anyway<\/button>$/);
    expect(buttons[0]).toContain('name="continue_below_minimum"');
    expect(buttons[0]).toContain('value="1"');
    expect(reply.body).not.toContain("Continue to Payment");
    // The offer is tied to the warning, and not marked invalid.
    const offer = /<input[^>]*name="offer"[^>]*>/.exec(reply.body)?.[0];
    expect(offer).toContain('aria-describedby="inquiry-offer-warning"');
    expect(offer).toContain("data-warned");
    expect(offer).not.toContain("aria-invalid=");
    expect(reply.body).toMatch(new RegExp(`<p id="inquiry-offer-warning" role="alert"[^>]*>${WARNING}</p>`));
    expect(reply.body).toContain('value="$5,000"');
    expect(reply.body).toContain(BUYER.message);
    expect(inquiriesFor(domain.id)).toEqual([]);
    // The amount itself is not on the page.
    expect(reply.body).not.toMatch(/10,000|1000000|10000\.00/);
  });

  it("goes on when the buyer raises the offer or continues anyway", async () => {
    const domain = domainWithFloor(1_000_000);
    const raised = await postForm(app, `/payment/${domain.short}`, { intent: "inquiry", ...BUYER, offer: "$10,000" });
    expect(raised.status).toBe(303);
    const anyway = await postForm(app, `/payment/${domain.short}`, {
      intent: "inquiry",
      ...BUYER,
      offer: "$5,000",
      continue_below_minimum: "1",
    });
    expect(anyway.status).toBe(303);
    expect(anyway.headers.get("location")).toMatch(/^\/test-checkout\//);
    expect(inquiriesFor(domain.id).map((row) => row.offer)).toEqual(["$10,000", "$5,000"]);
  });

  it("does not warn about free-text offers, or on domains without a minimum", async () => {
    const floored = domainWithFloor(1_000_000);
    expect(
      (await postForm(app, `/payment/${floored.short}`, { intent: "inquiry", ...BUYER, offer: "let's talk" })).status,
    ).toBe(303);
    expect((await postForm(app, `/payment/${floored.short}`, { intent: "inquiry", ...BUYER, offer: "" })).status).toBe(
      303,
    );
    const open = domainWithFloor(null);
    expect((await postForm(app, `/payment/${open.short}`, { intent: "inquiry", ...BUYER, offer: "$1" })).status).toBe(
      303,
    );
  });

  it("still asks for the required fields first", async () => {
    const domain = domainWithFloor(1_000_000);
    const reply = await postForm(app, `/payment/${domain.short}`, {
      intent: "inquiry",
      ...BUYER,
      name: "",
      offer: "$5",
    });
    expect(reply.status).toBe(400);
    expect(reply.body).toContain("Please fill in all required fields");
    expect(reply.body).not.toContain("Send anyway");
  });
});

describe("fields the server refuses (issue #26 item 7)", () => {
  it("are marked invalid and tied to their message, in the page and in the JSON route's field_errors", async () => {
    const domain = domainWithFloor(1_000_000);
    const reply = await postForm(app, `/payment/${domain.short}`, { intent: "inquiry", ...BUYER, email: "nope" });
    expect(reply.status).toBe(400);
    const email = /<input[^>]*name="email"[^>]*>/.exec(reply.body)?.[0];
    expect(email).toContain('aria-invalid="true"');
    expect(email).toContain('aria-describedby="inquiry-email-error"');
    expect(reply.body).toMatch(/<p id="inquiry-email-error"[^>]*>Please enter a valid email address<\/p>/);
    expect(/<input[^>]*name="name"[^>]*>/.exec(reply.body)?.[0]).not.toContain("aria-invalid=");
    const json = await postJson(app, "/api/create-payment-intent", {
      domain_name: domain.short,
      customer_info: { ...BUYER, email: "nope" },
    });
    expect(json.status).toBe(400);
    expect(json.json.field_errors).toEqual({ email: "Please enter a valid email address" });
    expect(inquiriesFor(domain.id)).toEqual([]);
  });
});

describe("minimum offer with JavaScript (the JSON route the form calls)", () => {
  it("answers 409 with the warning, then accepts the same offer with the continue flag", async () => {
    const domain = domainWithFloor(750_000);
    const info = { name: BUYER.name, email: BUYER.email, phone: "", message: BUYER.message, offer: "7,000" };
    const warned = await postJson(app, "/api/create-payment-intent", {
      domain_name: domain.short,
      customer_info: info,
    });
    expect(warned.status).toBe(409);
    expect(warned.json.error).toBe("Offers below the owner's minimum are usually declined");
    expect(warned.json.below_minimum).toBe(true);
    expect(JSON.stringify(warned.json)).not.toMatch(/7500|750000/);
    expect(inquiriesFor(domain.id)).toEqual([]);
    const accepted = await postJson(app, "/api/create-payment-intent", {
      domain_name: domain.short,
      customer_info: { ...info, continue_below_minimum: "1" },
    });
    expect(accepted.status).toBe(200);
    expect(accepted.json.client_secret).toBeTruthy();
  });
});

describe("the minimum never reaches the browser", () => {
  it("is in no page or loader data a buyer can fetch", async () => {
    const domain = domainWithFloor(4_321_987);
    const pages = [
      `/domain/${domain.short}`,
      `/domain/${domain.short}.data`,
      `/payment/${domain.short}`,
      `/payment/${domain.short}.data`,
      "/",
      "/_.data",
      `/sitemap.xml`,
    ];
    for (const path of pages) {
      const reply = await request(app, path);
      expect(reply.status, path).toBeLessThan(400);
      expect(reply.body, path).not.toMatch(/4321987|43,219\.87|43219\.87|min_offer/);
    }
  });
});

// Last in this file: it uses up this address's inquiry limit (60 in 10 minutes).
describe("the minimum cannot be found by binary search past the rate limit", () => {
  it("once the address is limited, offers below and above the minimum get the same 429", async () => {
    const domain = domainWithFloor(1_000_000);
    const post = (offer: string) =>
      postForm(app, `/payment/${domain.short}`, { intent: "inquiry", ...BUYER, name: "", offer });
    // Invalid forms (no name) are not counted; a below-minimum offer is, like any attempt.
    let attempts = 0;
    for (; attempts < 100; attempts++) {
      const reply = await postForm(app, `/payment/${domain.short}`, { intent: "inquiry", ...BUYER, offer: "$1" });
      if (reply.status === 429) break;
      expect(reply.status).toBe(409);
    }
    expect(attempts).toBeLessThanOrEqual(60);
    const below = await postForm(app, `/payment/${domain.short}`, { intent: "inquiry", ...BUYER, offer: "$9,999" });
    const above = await postForm(app, `/payment/${domain.short}`, { intent: "inquiry", ...BUYER, offer: "$10,001" });
    expect([below.status, above.status]).toEqual([429, 429]);
    expect(below.body).not.toContain("Send anyway");
    expect((await post("$1")).status).toBe(400);
    expect(inquiriesFor(domain.id)).toEqual([]);
    console.log(
      `minimum-offer oracle: limited after ${attempts} attempts; then below and above the minimum both answer 429`,
    );
  });
});
