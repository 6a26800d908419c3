import { createHmac } from "node:crypto";
import { beforeAll, describe, expect, it, vi } from "vitest";

// The owner's links are signed with SESSION_SECRET and point at PUBLIC_URL: both set before the app loads.
const { SECRET, PUBLIC_URL } = vi.hoisted(() => {
  const settings = { SECRET: "refund-promise-test-secret-0123456789", PUBLIC_URL: "https://domains.example.test" };
  process.env.SESSION_SECRET = settings.SECRET;
  process.env.PUBLIC_URL = settings.PUBLIC_URL;
  return settings;
});

import { getSetting } from "../../app/server/catalog/settings.server";
import { findInquiryByPublicId } from "../../app/server/inquiries/inquiries.server";
import { RESPONSE_WINDOW_KEY, setResponseWindowDays } from "../../app/server/inquiries/refund-promise.server";
import type { Domain } from "../../db/schema";
import {
  adminSession,
  BUYER,
  createAdmin,
  createDomain,
  createPaidInquiry,
  type TestAdmin,
} from "../support/factories";
import { DAY_MS, useTestClock } from "../support/in-process/clock";
import { render } from "../support/in-process/document";
import { sentMail } from "../support/in-process/mail";
import { mailText, subjectOf } from "../support/mail-text";
import { onServer, replyLinkIn } from "../support/refund-promise";
import { visibleText } from "../support/visible-text";

// The refund promise's buyer and owner side: the buyer's receipt, the owner's signed "I have replied" link
// (forged, reused, expired), the response window, and what the owner's page says after the admin acted. No
// refund pass runs here (auto-refund.test.ts). The trust signal on cached domain pages: the integration
// test of the same name.
const clock = useTestClock();
let admin: TestAdmin;
beforeAll(async () => {
  admin = await createAdmin();
});

const mailsTo = async (address: string, subject: string) =>
  (await sentMail()).filter((m) => m.to.includes(address) && subjectOf(m).includes(subject));
async function ownerMail(domainName: string) {
  const mail = (await sentMail()).find((m) => subjectOf(m).startsWith(`New inquiry for ${domainName}`));
  if (!mail) throw new Error(`no owner email for ${domainName}`);
  return mail;
}
const inquiryRow = async (publicId: string) => (await findInquiryByPublicId(publicId))!;
const payInquiry = (domain: Domain, buyer: Partial<typeof BUYER> = {}) => createPaidInquiry(domain, { buyer });

function signPage(publicId: string, purpose = "owner-inquiry"): string {
  return createHmac("sha256", SECRET).update(`${purpose}\n${publicId}`).digest("base64url");
}

function sign(publicId: string, expires: number): string {
  return createHmac("sha256", SECRET).update(`owner-replied\n${publicId}\n${expires}`).digest("base64url");
}

describe("buyer receipt", () => {
  it("is emailed once on payment with the domain, amount, date and the promise's deadline", async () => {
    const domain = await createDomain({ prefix: "receipt" });
    const buyerEmail = `receipt-${domain.id}@buyer.example`;
    const inquiry = await payInquiry(domain, { email: buyerEmail });
    expect(inquiry.status).toBe("paid");
    expect(Date.parse(inquiry.reply_deadline_at!) - Date.parse(inquiry.paid_at!)).toBe(7 * DAY_MS);
    const [receipt, ...more] = await mailsTo(buyerEmail, "Receipt");
    expect(more).toHaveLength(0);
    expect(subjectOf(receipt!)).toBe(`Receipt: inquiry fee for ${domain.domain_name} [test mode - no real charge]`);
    const text = mailText(receipt!);
    expect(text).toContain(`Domain: ${domain.domain_name}`);
    expect(text).toContain("Inquiry fee paid: $19.99");
    const paidDay = new Date(inquiry.paid_at!).toLocaleDateString("en-US", { dateStyle: "long", timeZone: "UTC" });
    const deadlineDay = new Date(inquiry.reply_deadline_at!).toLocaleDateString("en-US", {
      dateStyle: "long",
      timeZone: "UTC",
    });
    expect(text).toContain(`Date: ${paidDay}`);
    // The promise in its one wording (a new site lets the buyer choose refund or credit), and its deadline.
    expect(text).toContain(
      "Our promise: If the owner doesn't reply within 7 days, you choose: a refund or a credit for another name.",
    );
    expect(text).toMatch(new RegExp(`The owner's reply is due by ${deadlineDay} at \\d{1,2}:\\d{2} [AP]M UTC`));
    expect(text).toContain("your fee of $19.99 refunded in full to your original payment method, or a credit");

    // The success page reloaded (fulfilment runs again): still one receipt.
    expect((await render(`/payment/${domain.short}?inquiry=${inquiry.public_id}`)).status).toBe(200);
    expect(await mailsTo(buyerEmail, "Receipt")).toHaveLength(1);
  });

  it("the response window setting sets the deadline of inquiries paid after it changed", async () => {
    await setResponseWindowDays(3);
    try {
      const inquiry = await payInquiry(await createDomain());
      expect(Date.parse(inquiry.reply_deadline_at!) - Date.parse(inquiry.paid_at!)).toBe(3 * DAY_MS);
    } finally {
      await setResponseWindowDays(7);
    }
  });
});

describe("owner's inquiry page (the link in the owner's email)", () => {
  const statusOf = (body: string) =>
    /data-testid="inquiry-status"[^>]*>([^<]*)</.exec(body)?.[1]?.replace(/&#x27;/g, "'");
  const markByEmail = (link: string) => render(link, { form: { intent: "replied-by-email" } });

  it('GET only shows the page; "I have replied by email" marks the inquiry answered once', async () => {
    const domain = await createDomain({ ownerEmail: "link-owner@example.test" });
    const inquiry = await payInquiry(domain);
    const mail = await ownerMail(domain.domain_name);
    expect(mail.to).toEqual(["link-owner@example.test"]);
    const link = replyLinkIn(mail);
    expect(link.origin).toBe(PUBLIC_URL);
    expect(link.pathname).toBe(`/owner-reply/${inquiry.public_id}`);
    expect(link.searchParams.get("sig")).toBe(signPage(inquiry.public_id));
    expect(mailText(mail)).toContain(
      "If you have not replied by then, they choose: their fee of $19.99 refunded, or a credit for another name.",
    );

    // A mail scanner's prefetch (GET, twice) changes nothing.
    for (let i = 0; i < 2; i++) {
      const page = await render(onServer(link));
      expect(page.status).toBe(200);
      const text = visibleText(page.body);
      expect(text).toContain(`Inquiry from ${BUYER.name} about ${domain.domain_name}`);
      expect(text).toContain(BUYER.email);
      expect(text).toContain("I have replied by email");
      expect(statusOf(page.body)).toBe("Waiting for the owner's reply");
      expect(page.headers.get("cache-control")).toBe("no-store");
      expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    }
    expect((await inquiryRow(inquiry.public_id)).answered_at).toBeNull();

    const confirmed = await markByEmail(onServer(link));
    expect(confirmed.status).toBe(303);
    const done = await render(confirmed.location!);
    expect(done.status).toBe(200);
    expect(visibleText(done.body)).toContain("Thank you: the inquiry is marked as answered by email.");
    expect(visibleText(done.body)).toContain("The owner replied by email.");
    expect(statusOf(done.body)).toBe("The owner replied");
    expect(done.body).not.toContain("I have replied by email");
    const answered = await inquiryRow(inquiry.public_id);
    expect(answered).toMatchObject({ status: "paid", answered_via: "owner_link" });
    expect(answered.answered_at).toBeTruthy();

    // Posted again (a second tab): refused with a message, and the first answer time is kept.
    const again = await markByEmail(onServer(link));
    expect(again.status).toBe(409);
    expect(visibleText(again.body)).toContain("This inquiry is already answered.");
    expect((await inquiryRow(inquiry.public_id)).answered_at).toBe(answered.answered_at);
  });

  it("answers forged links, links moved to another inquiry and the buyer's link with 404, changing nothing", async () => {
    const first = await payInquiry(await createDomain());
    const second = await payInquiry(await createDomain());
    const expires = Math.floor(Date.parse(first.reply_deadline_at!) / 1000);
    const good = `/owner-reply/${first.public_id}?sig=${signPage(first.public_id)}`;
    const otherSecret = createHmac("sha256", "another-secret-0123456789")
      .update(`owner-replied\n${first.public_id}\n${expires}`)
      .digest("base64url");
    const forged = [
      `/owner-reply/${second.public_id}?sig=${signPage(first.public_id)}`,
      good.replace(/sig=(.)/, (_m, c: string) => `sig=${c === "A" ? "B" : "A"}`),
      `/owner-reply/${first.public_id}`,
      `/owner-reply/${first.public_id}?sig=${"x".repeat(43)}`,
      `/owner-reply/${first.public_id}?sig=${signPage(first.public_id, "buyer-inquiry")}`,
      // The old links' scheme: another inquiry's signature, a later expiry, another secret.
      `/owner-reply/${second.public_id}?expires=${expires}&signature=${sign(first.public_id, expires)}`,
      `/owner-reply/${first.public_id}?expires=${expires + 86400}&signature=${sign(first.public_id, expires)}`,
      `/owner-reply/${first.public_id}?expires=${expires}&signature=${otherSecret}`,
    ];
    for (const path of forged) {
      const page = await render(path);
      expect(page.status, path).toBe(404);
      expect(page.body, path).not.toContain(BUYER.email);
      const post = await markByEmail(path);
      expect(post.status, path).toBe(404);
    }
    expect((await inquiryRow(first.public_id)).answered_at).toBeNull();
    expect((await inquiryRow(second.public_id)).answered_at).toBeNull();
    expect((await render(good)).status).toBe(200);
  });

  it("an old emailed link (?expires=&signature=) leads to the owner's page, before and after its expiry", async () => {
    const inquiry = await payInquiry(await createDomain());
    const expires = Math.floor(Date.parse(inquiry.reply_deadline_at!) / 1000);
    const old = `/owner-reply/${inquiry.public_id}?expires=${expires}&signature=${sign(inquiry.public_id, expires)}`;
    const target = `/owner-reply/${inquiry.public_id}?sig=${signPage(inquiry.public_id)}`;
    expect((await render(old)).location).toBe(target);
    clock.set(7 * DAY_MS + 60_000);
    expect((await render(old)).location).toBe(target);
  });

  it("after the deadline: the page says Closed, offers no reply, and a late confirmation is refused", async () => {
    const domain = await createDomain();
    const inquiry = await payInquiry(domain);
    const link = onServer(replyLinkIn(await ownerMail(domain.domain_name)));
    clock.set(7 * DAY_MS + 60_000);
    const page = await render(link);
    expect(page.status).toBe(200);
    expect(statusOf(page.body)).toBe("Closed");
    expect(visibleText(page.body)).toContain("This inquiry is closed");
    expect(page.body).not.toContain("I have replied by email");
    expect(page.body).not.toContain("Send reply");
    const post = await markByEmail(link);
    expect(post.status).toBe(409);
    expect(visibleText(post.body)).toContain("The reply deadline has passed");
    expect((await inquiryRow(inquiry.public_id)).answered_at).toBeNull();
    // One minute before the deadline it still works.
    clock.set(7 * DAY_MS - 60_000);
    expect((await markByEmail(link)).status).toBe(303);
    expect((await inquiryRow(inquiry.public_id)).answered_at).toBeTruthy();
  });

  it("answers an unknown inquiry's correctly signed link with 404", async () => {
    const publicId = "no-such-inquiry-0000000";
    expect((await render(`/owner-reply/${publicId}?sig=${signPage(publicId)}`)).status).toBe(404);
  });
});

describe("response window setting (admin Settings)", () => {
  it("is validated on the server: whole days from 1 to 60", async () => {
    const cookie = admin.cookie;
    const post = (value: string) =>
      render("/admin", { cookie, form: { intent: "response-window", responseWindowDays: value } });
    const stored = await getSetting(RESPONSE_WINDOW_KEY);
    for (const value of ["0", "61", "7.5", "abc", "", "-1"]) {
      const reply = await post(value);
      expect(reply.status, value).toBe(400);
      expect(visibleText(reply.body)).toContain("The response window must be a whole number of days from 1 to 60.");
    }
    expect(await getSetting(RESPONSE_WINDOW_KEY)).toBe(stored);
    const saved = await post("14");
    expect(saved.status).toBe(303);
    expect(saved.location).toContain("notice=response-window-updated");
    const panel = await render(saved.location!, { cookie });
    expect(visibleText(panel.body)).toContain("Response window updated.");
    expect(panel.body).toMatch(/id="response-window"[^>]*value="14"/);
    try {
      const inquiry = await payInquiry(await createDomain());
      expect(Date.parse(inquiry.reply_deadline_at!) - Date.parse(inquiry.paid_at!)).toBe(14 * DAY_MS);
    } finally {
      await setResponseWindowDays(7);
    }
  });
});

describe("admin inbox: mark answered", () => {
  it("follows the same rule as the owner's link: before the deadline only", async () => {
    const late = await payInquiry(await createDomain());
    const answer = async (id: number) =>
      render("/admin/inquiries", { cookie: await adminSession(admin.id), form: { intent: "answer", id: String(id) } });
    clock.set(7 * DAY_MS + 60_000);
    const refused = await answer(late.id);
    expect(refused.status).toBe(303);
    expect(refused.location).toContain("notice=inquiry-answer-refused");
    expect((await inquiryRow(late.public_id)).answered_at).toBeNull();
    clock.set(0);
    const inTime = await payInquiry(await createDomain());
    const accepted = await answer(inTime.id);
    expect(accepted.location).toContain("notice=inquiry-answered");
    expect(await inquiryRow(inTime.public_id)).toMatchObject({ answered_via: "admin" });
  });
});

describe("owner's page after the admin acted (issue #12 item 8: say what happened)", () => {
  const adminPost = (form: Record<string, string>) => render("/admin/inquiries", { cookie: admin.cookie, form });

  it("after a refund in the inbox, says Refunded and closed, with nothing to confirm", async () => {
    const domain = await createDomain();
    const inquiry = await payInquiry(domain);
    const link = onServer(replyLinkIn(await ownerMail(domain.domain_name)));
    const refund = await adminPost({ intent: "refund", id: String(inquiry.id), confirmed: "1" });
    expect(refund.location).toContain("notice=inquiry-refunded");
    const page = await render(link);
    expect(page.status).toBe(200);
    const text = visibleText(page.body);
    expect(text).toContain("Refunded");
    expect(text).toContain("This inquiry is closed");
    expect(text).not.toContain("I have replied by email");
    const post = await render(link, { form: { intent: "replied-by-email" } });
    expect(post.status).toBe(409);
    expect(visibleText(post.body)).toContain("This inquiry was refunded, so there is no reply to confirm.");
  });

  it("after the admin's Mark answered, says the administrator marked it", async () => {
    const domain = await createDomain();
    const inquiry = await payInquiry(domain);
    const link = onServer(replyLinkIn(await ownerMail(domain.domain_name)));
    expect((await adminPost({ intent: "answer", id: String(inquiry.id) })).location).toContain(
      "notice=inquiry-answered",
    );
    const page = await render(link);
    expect(page.status).toBe(200);
    const text = visibleText(page.body);
    expect(text).toContain("The site's administrator marked this inquiry as answered.");
    expect(text).toContain("The owner replied");
    expect(text).not.toContain("I have replied by email");
  });
});
