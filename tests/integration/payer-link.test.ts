import { describe, expect, it } from "vitest";
import { BUYER, postForm, postJson, request, waitFor } from "../support/http";
import { CookieJar } from "../support/owner";
import { mailText, newDomain, subjectOf } from "../support/refund-promise";
import { usePromiseServer } from "../support/promise-server";
import { visibleText } from "./admin-helpers";

// Issue #34 item 1: the success step's details, the receipt's address and the buyer's signed inquiry
// link go only to the browser that started the inquiry. Its reference alone (the owner's email prints
// it) shows the generic success text at most, on the page and in its .data form; the request log keeps
// neither the reference nor the signature.
const harness = usePromiseServer("payer-link", { LOG_REQUESTS: "true" });

const onServer = (location: string | null) => {
  const url = new URL(location!, harness.app.url);
  return url.pathname + url.search;
};
const mailTo = (to: string, subject: string) =>
  waitFor(
    () => harness.smtp.messages.find((m) => m.to.includes(to) && subjectOf(m).startsWith(subject)),
    10_000,
    `${subject} to ${to}`,
  );
const get = (path: string, jar?: CookieJar) =>
  request(harness.app, path, jar ? { headers: { cookie: jar.header() } } : {});

/** No JavaScript: the form, the test checkout page's Pay button, back to the success URL. */
async function payWithoutJavaScript(buyer: CookieJar, domain: { short: string }, email: string) {
  const started = await postForm(harness.app, `/payment/${domain.short}`, { intent: "inquiry", ...BUYER, email });
  expect(started.status).toBe(303);
  buyer.take(started.headers);
  const paid = await postForm(harness.app, onServer(started.headers.get("location")), {
    card_number: "4242424242424242",
    expiry: "12/40",
    cvc: "123",
  });
  expect(paid.status).toBe(303);
  return { setCookie: started.headers.getSetCookie(), successPath: onServer(paid.headers.get("location")) };
}

/** JavaScript: the JSON routes as the page's script calls them, then the page it is sent to. */
async function payWithJavaScript(buyer: CookieJar, domain: { short: string }, email: string) {
  const created = await postJson(harness.app, "/api/create-payment-intent", {
    domain_name: domain.short,
    customer_info: { ...BUYER, email },
  });
  expect(created.status).toBe(200);
  buyer.take(created.headers);
  const card = await postJson(harness.app, "/api/test-payments/confirm", {
    client_secret: created.json.client_secret,
    card_number: "4242424242424242",
    expiry: "12/40",
    cvc: "123",
  });
  expect(card.status).toBe(200);
  const confirmed = await postJson(harness.app, "/api/confirm-payment", {
    payment_intent_id: created.json.payment_intent_id,
    domain_name: domain.short,
  });
  expect(confirmed.json.ok).toBe(true);
  return { setCookie: created.headers.getSetCookie(), successPath: String(confirmed.json.redirect) };
}

describe("an unpaid inquiry's Edit details", () => {
  it("fills the form with what the buyer typed in the buyer's browser only", async () => {
    const domain = newDomain(harness.app, { prefix: "payeredit" });
    const email = `edit-${domain.id}@buyer.example`;
    const created = await postJson(harness.app, "/api/create-payment-intent", {
      domain_name: domain.short,
      customer_info: { ...BUYER, email },
    });
    const buyer = new CookieJar();
    buyer.take(created.headers);
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
    const domain = newDomain(harness.app, { prefix: "payer", ownerEmail: "payer-owner@example.test" });
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
    const ownerMail = mailText(await mailTo("payer-owner@example.test", `New inquiry for ${domain.name}`));
    const reference = /Reference: (\S+)/.exec(ownerMail)![1]!;
    const byReference = `/payment/${domain.short}?inquiry=${reference}`;
    expect(successPath).toContain(`inquiry=${reference}`);
    const otherBuyer = new CookieJar();
    await payWithoutJavaScript(otherBuyer, newDomain(harness.app, { prefix: "payer" }), `other-${domain.id}@x.example`);
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

    // The request log keeps the pages asked for, not the reference or the signature that opened them.
    const requestLines = await waitFor(
      () => {
        const lines = harness.app
          .output()
          .split("\n")
          .filter((line) => line.includes('"msg":"request"'));
        return lines.some((line) => line.includes(`/payment/${domain.short}.data?inquiry=%5Bredacted%5D`)) && lines;
      },
      5_000,
      "the request log",
    );
    expect(requestLines.join("\n")).not.toMatch(/sig=(?!%5Bredacted%5D)|inquiry=(?!%5Bredacted%5D)/);
    expect(requestLines.join("\n")).not.toContain(`inquiry=${reference}`);
  });
});
