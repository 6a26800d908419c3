import { createHmac } from "node:crypto";
import { beforeAll, describe, expect, it, vi } from "vitest";

const { SECRET } = vi.hoisted(() => {
  const SECRET = "inquiry-page-test-secret-0123456789";
  process.env.SESSION_SECRET = SECRET;
  return { SECRET };
});

import { startInquiry } from "../../app/server/payments/flow.server";
import { CookieJar } from "../support/cookie-jar";
import { BUYER, createAdmin, createDomain, type TestAdmin } from "../support/factories";
import { payThroughPages } from "../support/in-process/buyer";
import { DAY_MS, useTestClock } from "../support/in-process/clock";
import { render } from "../support/in-process/document";
import { sentMail } from "../support/in-process/mail";
import { subjectOf } from "../support/mail-text";
import { linkIn } from "../support/refund-promise";
import { visibleText } from "../support/visible-text";

// The buyer's inquiry page (issue 23 item 1): reached from the receipt email and the success step, signed
// (a changed id or signature is a plain 404), its statuses in words, closed when it is over.
const clock = useTestClock();
let admin: TestAdmin;
beforeAll(async () => {
  admin = await createAdmin();
});

async function receiptTo(email: string) {
  const mail = (await sentMail()).find((m) => m.to.includes(email) && subjectOf(m).startsWith("Receipt"));
  if (!mail) throw new Error(`no receipt to ${email}`);
  return mail;
}
const sign = (publicId: string, purpose = "buyer-inquiry") =>
  createHmac("sha256", SECRET).update(`${purpose}\n${publicId}`).digest("base64url");
const statusOf = (body: string) =>
  /data-testid="inquiry-status"[^>]*>([^<]*)</.exec(body)?.[1]?.replace(/&#x27;/g, "'");

async function paidWithLink(prefix = "page") {
  const domain = await createDomain({ prefix });
  const email = `${prefix}-${domain.id}@buyer.example`;
  const buyer = new CookieJar();
  const inquiry = await payThroughPages(domain, { email }, buyer);
  return { domain, inquiry, buyer, link: linkIn(await receiptTo(email), "/inquiry/") };
}

describe("the buyer's inquiry page", () => {
  it("is linked from the receipt and shows the domain, fee, dates, status and the first message", async () => {
    const { domain, inquiry, link } = await paidWithLink();
    expect(link).toBe(`/inquiry/${inquiry.public_id}?sig=${sign(inquiry.public_id)}`);
    const page = await render(link);
    expect(page.status).toBe(200);
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.body).toMatch(/<meta name="robots" content="noindex"/);
    const text = visibleText(page.body);
    expect(text).toContain(`Your inquiry for ${domain.domain_name}`);
    expect(text).toContain("Fee paid $19.99");
    const day = (iso: string) => new Date(iso).toLocaleDateString("en-US", { dateStyle: "long", timeZone: "UTC" });
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
    const success = await render(`/payment/${domain.short}?inquiry=${inquiry.public_id}`, { jar: buyer });
    expect(success.body).toContain("Payment Successful!");
    const href = /<a href="([^"]+)"[^>]*>View your inquiry<\/a>/.exec(success.body)?.[1]?.replace(/&amp;/g, "&");
    expect(href).toBe(link);
    clock.set(61 * 60 * 1000);
    const later = await render(`/payment/${domain.short}?inquiry=${inquiry.public_id}`, { jar: buyer });
    expect(later.body).toContain("Payment Successful!");
    expect(later.body).not.toContain("View your inquiry");
    expect(visibleText(later.body)).toContain("The link to your inquiry is in your receipt email.");
  });

  it("answers a changed id or signature, another inquiry's signature and an unpaid inquiry with the same 404", async () => {
    const first = await paidWithLink("forged");
    const second = await paidWithLink("forged");
    const notFound = await render("/no-such-page-at-all");
    expect(notFound.status).toBe(404);
    const id = first.inquiry.public_id;
    // A buyer who filled in the form and never paid.
    const unpaid = await startInquiry("127.0.0.1", first.domain, { ...BUYER, email: "x@example.test" });
    if (unpaid.kind !== "created") throw new Error(`the unpaid inquiry was not created: ${unpaid.kind}`);
    const unpaidId = unpaid.inquiry.public_id;
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
      const page = await render(path);
      expect(page.status, path).toBe(404);
      // The same page as any unknown address: no word about inquiries.
      expect(visibleText(page.body), path).toBe(visibleText(notFound.body));
    }
  });

  it('says "The owner replied" once answered, then "Refunded" and "This inquiry is closed" after a refund', async () => {
    const { inquiry, link } = await paidWithLink("status");
    const adminPost = (form: Record<string, string>) => render("/admin/inquiries", { cookie: admin.cookie, form });
    expect((await adminPost({ intent: "answer", id: String(inquiry.id) })).location).toContain(
      "notice=inquiry-answered",
    );
    const answered = await render(link);
    expect(statusOf(answered.body)).toBe("The owner replied");
    expect(visibleText(answered.body)).toContain("The site's administrator marked this inquiry as answered.");
    expect((await adminPost({ intent: "refund", id: String(inquiry.id), confirmed: "1" })).location).toContain(
      "notice=inquiry-refunded",
    );
    const refunded = await render(link);
    expect(refunded.status).toBe(200);
    expect(statusOf(refunded.body)).toBe("Refunded");
    expect(visibleText(refunded.body)).toContain("This inquiry is closed");
  });

  it('says "Closed" once the deadline passed without a reply', async () => {
    const { inquiry, link } = await paidWithLink("closed");
    clock.set(7 * DAY_MS + 60_000);
    const page = await render(link);
    expect(statusOf(page.body)).toBe("Closed");
    expect(visibleText(page.body)).toContain("This inquiry is closed");
    clock.set(0);
    expect(statusOf((await render(link)).body)).toBe("Waiting for the owner's reply");
    expect(inquiry.status).toBe("paid");
  });
});
