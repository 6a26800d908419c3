import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { adminCookie } from "../support/admin";
import { BUYER, request, waitFor } from "../support/http";
import { DAY_MS, linkIn, newDomain, payInquiry, subjectOf } from "../support/refund-promise";
import { http, visibleText } from "./admin-helpers";
import { usePromiseServer } from "../support/promise-server";
import { CookieJar } from "../support/owner";

// The buyer's inquiry page (issue 23 item 1) over HTTP: reached from the receipt email and the success
// step, signed (a changed id or signature is a plain 404), its statuses in words, closed when it is over.
const SECRET = "inquiry-page-test-secret-0123456789";
const harness = usePromiseServer("inquiry-page", {
  SESSION_SECRET: SECRET,
  REFUND_SCHEDULER_INTERVAL_MS: "3600000",
});
const { clock, admin: ADMIN } = harness;

const receiptTo = (email: string) =>
  waitFor(
    () => harness.smtp.messages.find((m) => m.to.includes(email) && subjectOf(m).startsWith("Receipt")),
    10_000,
    "receipt",
  );
const sign = (publicId: string, purpose = "buyer-inquiry") =>
  createHmac("sha256", SECRET).update(`${purpose}\n${publicId}`).digest("base64url");
const statusOf = (body: string) =>
  /data-testid="inquiry-status"[^>]*>([^<]*)</.exec(body)?.[1]?.replace(/&#x27;/g, "'");

async function paidWithLink(prefix = "page") {
  const domain = newDomain(harness.app, { prefix });
  const email = `${prefix}-${domain.id}@buyer.example`;
  const buyer = new CookieJar();
  const inquiry = await payInquiry(harness.app, domain, { email }, buyer);
  return { domain, inquiry, buyer, link: linkIn(await receiptTo(email), "/inquiry/") };
}

describe("the buyer's inquiry page", () => {
  it("is linked from the receipt and shows the domain, fee, dates, status and the first message", async () => {
    const { domain, inquiry, link } = await paidWithLink();
    expect(link).toBe(`/inquiry/${inquiry.public_id}?sig=${sign(inquiry.public_id)}`);
    const page = await request(harness.app, link);
    expect(page.status).toBe(200);
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.body).toMatch(/<meta name="robots" content="noindex"/);
    const text = visibleText(page.body);
    expect(text).toContain(`Your inquiry for ${domain.name}`);
    expect(text).toContain("Fee paid $19.99");
    const day = (iso: string) =>
      new Date(iso).toLocaleDateString("en-US", {
        dateStyle: "long",
        timeZone: "UTC",
      });
    expect(text).toContain(`Paid on ${day(inquiry.paid_at!)}`);
    expect(text).toContain(`Reply deadline ${day(inquiry.reply_deadline_at!)}`);
    expect(statusOf(page.body)).toBe("Waiting for the owner's reply");
    expect(text).toContain(BUYER.message);
    expect(text).not.toContain("This inquiry is closed");
    // Nothing about the buyer's contact details beyond their own page's needs, nothing of other inquiries.
    expect(text).not.toContain(BUYER.phone);
  });

  it('is linked as "View your inquiry" from the success step for an hour after payment', async () => {
    const { domain, inquiry, buyer, link } = await paidWithLink("success");
    const asBuyer = { headers: { cookie: buyer.header() } };
    const success = await request(harness.app, `/payment/${domain.short}?inquiry=${inquiry.public_id}`, asBuyer);
    expect(success.body).toContain("Payment Successful!");
    const href = /<a href="([^"]+)"[^>]*>View your inquiry<\/a>/.exec(success.body)?.[1]?.replace(/&amp;/g, "&");
    expect(href).toBe(link);
    await clock.set(61 * 60 * 1000);
    try {
      const later = await request(harness.app, `/payment/${domain.short}?inquiry=${inquiry.public_id}`, asBuyer);
      expect(later.body).toContain("Payment Successful!");
      expect(later.body).not.toContain("View your inquiry");
      expect(visibleText(later.body)).toContain("The link to your inquiry is in your receipt email.");
    } finally {
      await clock.set(0);
    }
  });

  it("answers a changed id or signature, another inquiry's signature and an unpaid inquiry with the same 404", async () => {
    const first = await paidWithLink("forged");
    const second = await paidWithLink("forged");
    const notFound = await request(harness.app, "/no-such-page-at-all");
    expect(notFound.status).toBe(404);
    const id = first.inquiry.public_id;
    const unpaidId = "unpaidinquiry00000000";
    harness.app
      .db()
      .prepare(
        `INSERT INTO inquiries (public_id, domain_id, domain_name, name, email, phone, message, offer, amount_cents, currency,
           status, provider, created_at) VALUES (?, ?, ?, 'X', 'x@example.test', '', 'hello', '', 1999, 'usd', 'pending', 'test', ?)`,
      )
      .run(unpaidId, first.domain.id, first.domain.name, new Date().toISOString());
    const forged = [
      `/inquiry/${second.inquiry.public_id}?sig=${sign(id)}`,
      `/inquiry/${id}?sig=${sign(id).replace(/^./, (c) => (c === "A" ? "B" : "A"))}`,
      `/inquiry/${id}`,
      `/inquiry/${id}?sig=`,
      `/inquiry/${id}?sig=${"x".repeat(43)}`,
      `/inquiry/${id.slice(0, -1)}${id.endsWith("A") ? "B" : "A"}?sig=${sign(id)}`,
      `/inquiry/${id}?sig=${sign(id, "owner-inquiry")}`,
      `/inquiry/${unpaidId}?sig=${sign(unpaidId)}`,
      `/inquiry/no-such-inquiry-000000?sig=${sign("no-such-inquiry-000000")}`,
    ];
    for (const path of forged) {
      const page = await request(harness.app, path);
      expect(page.status, path).toBe(404);
      // The same page as any unknown address: no word about inquiries.
      expect(visibleText(page.body), path).toBe(visibleText(notFound.body));
    }
  });

  it('says "The owner replied" once answered, then "Refunded" and "This inquiry is closed" after a refund', async () => {
    const { inquiry, link } = await paidWithLink("status");
    const cookie = await adminCookie(harness.app.url, ADMIN);
    const admin = (form: Record<string, string>) =>
      http(harness.app, "/admin/inquiries", {
        cookie,
        form,
        headers: { Origin: harness.app.origin },
      });
    expect((await admin({ intent: "answer", id: String(inquiry.id) })).location).toContain("notice=inquiry-answered");
    const answered = await request(harness.app, link);
    expect(statusOf(answered.body)).toBe("The owner replied");
    expect(visibleText(answered.body)).toContain("The site's administrator marked this inquiry as answered.");
    expect(
      (
        await admin({
          intent: "refund",
          id: String(inquiry.id),
          confirmed: "1",
        })
      ).location,
    ).toContain("notice=inquiry-refunded");
    const refunded = await request(harness.app, link);
    expect(refunded.status).toBe(200);
    expect(statusOf(refunded.body)).toBe("Refunded");
    expect(visibleText(refunded.body)).toContain("This inquiry is closed");
  });

  it('says "Closed" once the deadline passed without a reply', async () => {
    const { inquiry, link } = await paidWithLink("closed");
    await clock.set(7 * DAY_MS + 60_000);
    try {
      const page = await request(harness.app, link);
      expect(statusOf(page.body)).toBe("Closed");
      expect(visibleText(page.body)).toContain("This inquiry is closed");
    } finally {
      await clock.set(0);
    }
    expect(statusOf((await request(harness.app, link)).body)).toBe("Waiting for the owner's reply");
    expect(inquiry.status).toBe("paid");
  });
});
