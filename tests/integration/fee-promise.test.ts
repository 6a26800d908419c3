import { describe, expect, it } from "vitest";
import { adminCookie } from "../support/admin";
import { BUYER, postForm, request, waitFor } from "../support/http";
import {
  DAY_MS,
  inquiryRow,
  linkIn,
  mailText,
  newDomain,
  setResponseWindowDays,
  setSilencePolicy,
  subjectOf,
} from "../support/refund-promise";
import { http, visibleText } from "./admin-helpers";
import { usePromiseServer } from "../support/promise-server";

// Issue #26 item 6: one promise, worded the same everywhere, from the settings (the response window and
// "When the owner does not reply in time"): the domain page, the checkout's Pay button, the success page,
// the receipt, the owner's email, the refund email, the admin's help text and the refund policy page.
const harness = usePromiseServer("fee-promise");
const { clock, admin: ADMIN } = harness;

const PROMISES = {
  refund: "Refunded automatically if the owner doesn't reply within 5 days.",
  choose: "If the owner doesn't reply within 5 days, you choose: a refund or a credit for another name.",
} as const;
const utc = (iso: string) =>
  `${new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeStyle: "short", timeZone: "UTC" }).format(new Date(iso))} UTC`;
const mails = (to: string, subject: string) =>
  harness.smtp.messages.filter((m) => m.to.includes(to) && subjectOf(m).startsWith(subject));
const mailTo = (to: string, subject: string) => waitFor(() => mails(to, subject)[0], 10_000, `${subject} to ${to}`);
const local = (location: string | null) => {
  const url = new URL(location!, harness.app.url);
  return url.pathname + url.search;
};

/** The no-JavaScript payment: the inquiry form, the test checkout page, its Pay button, the success page. */
async function payThroughCheckout(domain: { short: string; name: string }, email: string) {
  const started = await postForm(harness.app, `/payment/${domain.short}`, { intent: "inquiry", ...BUYER, email });
  expect(started.status).toBe(303);
  // The buyer's browser: the cookie naming the inquiry it started shows it the success step's details.
  const cookie = started.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const checkoutPath = local(started.headers.get("location"));
  const checkout = await request(harness.app, checkoutPath);
  const paid = await postForm(harness.app, checkoutPath, {
    card_number: "4242424242424242",
    expiry: "12/40",
    cvc: "123",
  });
  expect(paid.status).toBe(303);
  const successPath = local(paid.headers.get("location"));
  const success = await request(harness.app, successPath, { headers: { cookie } });
  const inquiry = inquiryRow(harness.app, new URL(successPath, harness.app.url).searchParams.get("inquiry")!);
  return { checkout: visibleText(checkout.body), success: visibleText(success.body), successPath, cookie, inquiry };
}

describe.each(["refund", "choose"] as const)('the promise under "%s"', (policy) => {
  it("is the same on every page and in every email, with the success page's facts from the server", async () => {
    setSilencePolicy(harness.app.db(), policy);
    setResponseWindowDays(harness.app.db(), 5);
    const promise = PROMISES[policy];
    const other = PROMISES[policy === "refund" ? "choose" : "refund"];
    const domain = newDomain(harness.app, { prefix: `promise${policy}`, ownerEmail: `owner-${policy}@example.test` });
    const email = `${policy}-${domain.id}@buyer.example`;

    const page = visibleText((await request(harness.app, `/domain/${domain.short}`)).body);
    expect(page).toContain(promise);
    // The spec's sentence stays beside it.
    expect(page).toContain("If the owner does not respond, you get a full refund or free credit.");
    const cookie = await adminCookie(harness.app.url, ADMIN);
    expect(visibleText((await http(harness.app, "/admin", { cookie })).body)).toContain(
      `Buyers are promised: "${promise}" Applies to inquiries paid from now on.`,
    );
    expect(visibleText((await request(harness.app, "/refunds")).body)).toContain(promise);

    const paid = await payThroughCheckout(domain, email);
    expect(paid.checkout).toMatch(new RegExp(`Pay \\$19\\.99 ${promise.replace(/[.()]/g, "\\$&")}`));
    const { inquiry } = paid;
    expect(inquiry.status).toBe("paid");
    expect(Date.parse(inquiry.reply_deadline_at!) - Date.parse(inquiry.paid_at!)).toBe(5 * DAY_MS);
    expect(paid.success).toContain("Payment Successful!");
    expect(paid.success).toContain(`Reference ${inquiry.public_id}`);
    expect(paid.success).toContain("Amount charged $19.99 (Test mode - no real charge)");
    expect(paid.success).toContain(`Reply by ${utc(inquiry.reply_deadline_at!)}`);
    expect(paid.success).toContain(promise);
    expect(paid.success).toContain(`A receipt was sent to ${email}`);
    for (const text of [page, paid.checkout, paid.success]) expect(text).not.toContain(other);

    const receipt = mailText(await mailTo(email, "Receipt"));
    expect(receipt).toContain(`Reference: ${inquiry.public_id}`);
    expect(receipt).toContain(`Our promise: ${promise}`);
    expect(receipt).toContain(`The owner's reply is due by ${utc(inquiry.reply_deadline_at!)}.`);
    expect(receipt).not.toContain(other);
    const owner = mailText(await mailTo(`owner-${policy}@example.test`, `New inquiry for ${domain.name}`));
    expect(owner).toContain(`The buyer was promised a reply by ${utc(inquiry.reply_deadline_at!)}.`);
    expect(owner).toContain(`Our promise to them: "${promise}"`);
    expect(owner).toContain(
      policy === "refund"
        ? "If you have not replied by then, their fee of $19.99 is refunded automatically."
        : "If you have not replied by then, they choose: their fee of $19.99 refunded, or a credit for another name.",
    );

    // The refund email restates the promise it keeps.
    await clock.set(5 * DAY_MS + 60_000);
    try {
      if (policy === "choose") {
        const link = linkIn(await mailTo(email, "Refund or credit"), "/inquiry/");
        const chosen = await request(harness.app, link, {
          method: "POST",
          headers: {
            "Content-Type": "application/x-www-form-urlencoded",
            Origin: "null",
            "Sec-Fetch-Site": "same-origin",
          },
          body: new URLSearchParams({ intent: "choose-refund" }).toString(),
        });
        expect(chosen.status).toBe(303);
      }
      const refund = mailText(await mailTo(email, "Your inquiry fee for"));
      expect(refund).toContain(`Our promise: ${promise}`);
      expect(refund).toContain(
        `${policy === "refund" ? "As promised, your" : "You chose the refund: your"} inquiry fee of $19.99 has been refunded in full`,
      );
      // Days later the success page's details are gone even from the buyer's browser (its cookie lived a
      // day: issue #34 item 1); the buyer's inquiry page, linked from the receipt, says the fee was refunded.
      const later = visibleText(
        (await request(harness.app, paid.successPath, { headers: { cookie: paid.cookie } })).body,
      );
      expect(later).toContain("Payment Successful!");
      expect(later).not.toContain(`Reference ${inquiry.public_id}`);
      expect(later).not.toContain(promise);
      expect(later).not.toContain(email);
      const inquiryPage = await request(harness.app, linkIn(await mailTo(email, "Receipt"), "/inquiry/"));
      expect(/data-testid="inquiry-status"[^>]*>([^<]*)</.exec(inquiryPage.body)?.[1]).toBe("Refunded");
    } finally {
      await clock.set(0);
    }
  });
});
