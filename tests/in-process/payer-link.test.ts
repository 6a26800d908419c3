import { vi } from "vitest";

vi.hoisted(() => {
  Object.assign(process.env, { PUBLIC_URL: "https://domains.example.test" });
});

import { describe, expect, it } from "vitest";
import { CookieJar } from "../support/cookie-jar";
import { BUYER, createDomain, GOOD_CARD } from "../support/factories";
import { render as renderHttp } from "../support/in-process/document";
import { sentMail } from "../support/in-process/mail";
import { TEST_ORIGIN } from "../support/in-process/routes";
import { mailText, subjectOf } from "../support/mail-text";
import { visibleText } from "../support/visible-text";

// Issue #34 item 1: the success step's details, the receipt's address and the buyer's signed inquiry
// link go only to the browser that started the inquiry. Its reference alone (the owner's email prints
// it) shows the generic success text at most, on the page and in its .data form. That the request log
// keeps neither the reference nor the signature is the server's: tests/integration/payer-link.test.ts.

/** As the server passes requests on with an https PUBLIC_URL: over https (cookies are Secure). */
const HTTPS_ORIGIN = "https://localhost:3000";
const render = (path: string, call: Parameters<typeof renderHttp>[1] = {}) =>
  renderHttp(`${HTTPS_ORIGIN}${path}`, { protocol: "https", origin: HTTPS_ORIGIN, ...call });
const local = (location: string | null) => {
  const url = new URL(location!, TEST_ORIGIN);
  return url.pathname + url.search;
};
async function mailTo(to: string, subject: string) {
  const mail = (await sentMail()).find((m) => m.to.includes(to) && subjectOf(m).startsWith(subject));
  expect(mail, `${subject} to ${to}`).toBeDefined();
  return mail!;
}
const get = (path: string, jar?: CookieJar) => render(path, jar ? { jar } : {});
const postJson = async (path: string, json: unknown, jar?: CookieJar) => {
  const reply = await render(path, jar ? { json, jar } : { json });
  return { status: reply.status, headers: reply.headers, json: JSON.parse(reply.body) as Record<string, any> };
};

/** No JavaScript: the form, the test checkout page's Pay button, back to the success URL. */
async function payWithoutJavaScript(buyer: CookieJar, domain: { short: string }, email: string) {
  const started = await render(`/payment/${domain.short}`, { form: { intent: "inquiry", ...BUYER, email } });
  expect(started.status).toBe(303);
  buyer.take(started.headers);
  const paid = await render(local(started.location), {
    form: { card_number: GOOD_CARD.number, expiry: GOOD_CARD.expiry, cvc: GOOD_CARD.cvc },
  });
  expect(paid.status).toBe(303);
  return { setCookie: started.headers.getSetCookie(), successPath: local(paid.location) };
}

/** JavaScript: the JSON routes as the page's script calls them, then the page it is sent to. */
async function payWithJavaScript(buyer: CookieJar, domain: { short: string }, email: string) {
  const created = await postJson("/api/create-payment-intent", {
    domain_name: domain.short,
    customer_info: { ...BUYER, email },
  });
  expect(created.status).toBe(200);
  buyer.take(created.headers);
  const card = await postJson("/api/test-payments/confirm", {
    client_secret: created.json.client_secret,
    card_number: GOOD_CARD.number,
    expiry: GOOD_CARD.expiry,
    cvc: GOOD_CARD.cvc,
  });
  expect(card.status).toBe(200);
  const confirmed = await postJson("/api/confirm-payment", {
    payment_intent_id: created.json.payment_intent_id,
    domain_name: domain.short,
  });
  expect(confirmed.json.ok).toBe(true);
  return { setCookie: created.headers.getSetCookie(), successPath: String(confirmed.json.redirect) };
}

describe("an unpaid inquiry's Edit details", () => {
  it("fills the form with what the buyer typed in the buyer's browser only", async () => {
    const domain = await createDomain({ prefix: "payeredit" });
    const email = `edit-${domain.id}@buyer.example`;
    const buyer = new CookieJar();
    const created = await postJson(
      "/api/create-payment-intent",
      { domain_name: domain.short, customer_info: { ...BUYER, email } },
      buyer,
    );
    const editPath = `/payment/${domain.short}?edit=${created.json.inquiry_id}`;
    expect((await get(editPath, buyer)).body).toContain(email);
    const stranger = await get(editPath);
    expect(stranger.body).toContain("Domain Inquiry");
    expect(stranger.body).not.toContain(email);
  });
});

describe.each([
  ["without JavaScript (Checkout)", payWithoutJavaScript],
  ["with JavaScript (PaymentIntent)", payWithJavaScript],
] as const)("the success step paid %s", (_path, pay) => {
  it("shows the inquiry's link and receipt address to the buyer's browser only", async () => {
    const domain = await createDomain({ prefix: "payer", ownerEmail: "payer-owner@example.test" });
    const email = `payer-${domain.id}@buyer.example`;
    const buyer = new CookieJar();
    const { setCookie, successPath } = await pay(buyer, domain, email);

    const success = await get(successPath, buyer);
    const receiptLink = /(\/inquiry\/\S+\?sig=\S+)/.exec(mailText(await mailTo(email, "Receipt")))![1]!;
    expect(success.headers.get("cache-control")).toBe("no-store");
    const text = visibleText(success.body);
    expect(text).toContain("Payment Successful!");
    expect(text).toContain(`A receipt was sent to ${email}`);
    const href = /<a href="([^"]+)"[^>]*>View your inquiry<\/a>/.exec(success.body)?.[1]?.replace(/&amp;/g, "&");
    expect(href).toBe(receiptLink);

    // The owner's email gives the reference; the success URL built from it shows nothing of the buyer's.
    const ownerMail = mailText(await mailTo("payer-owner@example.test", `New inquiry for ${domain.domain_name}`));
    const reference = /Reference: (\S+)/.exec(ownerMail)![1]!;
    const byReference = `/payment/${domain.short}?inquiry=${reference}`;
    expect(successPath).toContain(`inquiry=${reference}`);
    const otherBuyer = new CookieJar();
    await payWithoutJavaScript(otherBuyer, await createDomain({ prefix: "payer" }), `other-${domain.id}@x.example`);
    // Not the buyer's cookie: none, another buyer's, or one made up without the server's secret.
    const forged = new CookieJar();
    forged.cookies.set("inquiry_payer", encodeURIComponent(btoa(JSON.stringify({ [reference]: 4102444800 }))));
    for (const stranger of [undefined, otherBuyer, forged]) {
      for (const path of [byReference, successPath]) {
        const page = await get(path, stranger);
        expect(page.status).toBe(200);
        expect(page.headers.get("cache-control")).toBe("no-store");
        expect(visibleText(page.body)).toContain("Payment Successful!");
        for (const secret of ["View your inquiry", "sig=", email, "A receipt was sent", "Reply by"])
          expect(page.body).not.toContain(secret);
      }
      const data = await get(`/payment/${domain.short}.data?inquiry=${reference}`, stranger);
      expect(data.status).toBe(200);
      expect(data.headers.get("cache-control")).toBe("no-store");
      expect(data.body).toContain("success");
      for (const secret of ["sig=", email, "receiptTo"]) expect(data.body).not.toContain(secret);
    }
    const data = await get(`/payment/${domain.short}.data?inquiry=${reference}`, buyer);
    expect(data.body).toContain(receiptLink.split("?sig=")[1]);
    expect(data.body).toContain(email);

    // The cookie that told the buyer's browser apart.
    const cookie = setCookie.find((c) => c.startsWith("inquiry_payer="));
    expect(cookie).toMatch(/; Path=\/payment(;|$)/);
    expect(cookie).toMatch(/; HttpOnly(;|$)/);
    expect(cookie).toMatch(/; SameSite=Lax(;|$)/i);
    expect(cookie).toMatch(/; Secure(;|$)/); // PUBLIC_URL is https
    expect(Number(/Max-Age=(\d+)/.exec(cookie!)?.[1])).toBeLessThanOrEqual(25 * 60 * 60);
  });
});
