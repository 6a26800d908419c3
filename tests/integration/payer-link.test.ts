import { describe, expect, it } from "vitest";
import { BUYER, postForm, postJson, request, waitFor } from "../support/http";
import { CookieJar } from "../support/owner";
import { mailText, newDomain, subjectOf } from "../support/refund-promise";
import { usePromiseServer } from "../support/promise-server";
import { visibleText } from "./admin-helpers";

// Issue #34 item 1: the request log keeps neither the inquiry's reference nor the signature of its link,
// and the server makes the payer cookie Secure and the pages no-store behind an https PUBLIC_URL. What
// the success step shows to whom (the buyer's browser, strangers, forged cookies), and the Edit details
// form: tests/in-process/payer-link.test.ts.
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

describe.each([
  ["without JavaScript (Checkout)", payWithoutJavaScript],
  ["with JavaScript (PaymentIntent)", payWithJavaScript],
] as const)("the success step paid %s", (_path, pay) => {
  it("keeps the reference and the signature out of the request log", async () => {
    const domain = newDomain(harness.app, { prefix: "payer", ownerEmail: "payer-owner@example.test" });
    const email = `payer-${domain.id}@buyer.example`;
    const buyer = new CookieJar();
    const { setCookie, successPath } = await pay(buyer, domain, email);

    const success = await get(successPath, buyer);
    expect(success.headers.get("cache-control")).toBe("no-store");
    expect(visibleText(success.body)).toContain("View your inquiry");
    const ownerMail = mailText(await mailTo("payer-owner@example.test", `New inquiry for ${domain.name}`));
    const reference = /Reference: (\S+)/.exec(ownerMail)![1]!;
    for (const stranger of [undefined, buyer]) {
      const page = await get(`/payment/${domain.short}?inquiry=${reference}`, stranger);
      expect(page.headers.get("cache-control")).toBe("no-store");
      const data = await get(`/payment/${domain.short}.data?inquiry=${reference}`, stranger);
      expect(data.headers.get("cache-control")).toBe("no-store");
    }
    const cookie = setCookie.find((c) => c.startsWith("inquiry_payer="));
    expect(cookie).toMatch(/; Secure(;|$)/); // PUBLIC_URL is https

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
