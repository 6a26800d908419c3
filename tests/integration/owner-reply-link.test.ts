import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { adminCookie } from "../support/admin";
import { BUYER, postForm, request, waitFor } from "../support/http";
import {
  DAY_MS,
  inquiryRow,
  mailText,
  newDomain,
  onServer,
  payInquiry,
  replyLinkIn,
  subjectOf,
} from "../support/refund-promise";
import { http, visibleText } from "./admin-helpers";
import { usePromiseServer } from "../support/promise-server";

// The refund promise's buyer and owner side over HTTP and real SMTP: the buyer's receipt, the owner's
// signed "I have replied" link (forged, reused, expired), the response window, the trust signal.
const SECRET = "refund-promise-test-secret-0123456789";
const PUBLIC_URL = "https://domains.example.test";
const harness = usePromiseServer("owner-reply-link", {
  SESSION_SECRET: SECRET,
  PUBLIC_URL,
  // This file never lets a refund run: it checks the owner's side only (see auto-refund.test.ts).
  REFUND_SCHEDULER_INTERVAL_MS: "3600000",
});
const { clock } = harness;

const mailsTo = (address: string, subject: string) =>
  harness.smtp.messages.filter((m) => m.to.includes(address) && subjectOf(m).includes(subject));
const ownerMail = (domainName: string) =>
  waitFor(
    () => harness.smtp.messages.find((m) => subjectOf(m).startsWith(`New inquiry for ${domainName}`)),
    10_000,
    "owner email",
  );

function signPage(publicId: string, purpose = "owner-inquiry"): string {
  return createHmac("sha256", SECRET).update(`${purpose}\n${publicId}`).digest("base64url");
}

function sign(publicId: string, expires: number): string {
  return createHmac("sha256", SECRET).update(`owner-replied\n${publicId}\n${expires}`).digest("base64url");
}

describe("buyer receipt", () => {
  it("is emailed once on payment with the domain, amount, date and the promise's deadline", async () => {
    const domain = newDomain(harness.app);
    const buyerEmail = `receipt-${domain.id}@buyer.example`;
    const inquiry = await payInquiry(harness.app, domain, { email: buyerEmail });
    expect(inquiry.status).toBe("paid");
    expect(Date.parse(inquiry.reply_deadline_at!) - Date.parse(inquiry.paid_at!)).toBe(7 * DAY_MS);
    const [receipt] = await waitFor(
      () => mailsTo(buyerEmail, "Receipt").length > 0 && mailsTo(buyerEmail, "Receipt"),
      10_000,
      "receipt",
    );
    expect(subjectOf(receipt!)).toBe(`Receipt: inquiry fee for ${domain.name} [test mode - no real charge]`);
    const text = mailText(receipt!);
    expect(text).toContain(`Domain: ${domain.name}`);
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
    await request(harness.app, `/payment/${domain.short}?inquiry=${inquiry.public_id}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(mailsTo(buyerEmail, "Receipt")).toHaveLength(1);
  });

  it("the response window setting sets the deadline of inquiries paid after it changed", async () => {
    const db = harness.app.db();
    db.prepare(
      `INSERT INTO settings (key, value, created_at, updated_at) VALUES ('response_window_days', '3', ?, ?)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    ).run(new Date().toISOString(), new Date().toISOString());
    try {
      const inquiry = await payInquiry(harness.app, newDomain(harness.app));
      expect(Date.parse(inquiry.reply_deadline_at!) - Date.parse(inquiry.paid_at!)).toBe(3 * DAY_MS);
    } finally {
      db.prepare("DELETE FROM settings WHERE key = 'response_window_days'").run();
    }
  });
});

describe("owner's inquiry page (the link in the owner's email)", () => {
  const statusOf = (body: string) =>
    /data-testid="inquiry-status"[^>]*>([^<]*)</.exec(body)?.[1]?.replace(/&#x27;/g, "'");
  const markByEmail = (link: string) => postForm(harness.app, link, { intent: "replied-by-email" });

  it('GET only shows the page; "I have replied by email" marks the inquiry answered once', async () => {
    const domain = newDomain(harness.app, { ownerEmail: "link-owner@example.test" });
    const inquiry = await payInquiry(harness.app, domain);
    const mail = await ownerMail(domain.name);
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
      const page = await request(harness.app, onServer(link));
      expect(page.status).toBe(200);
      const text = visibleText(page.body);
      expect(text).toContain(`Inquiry from ${BUYER.name} about ${domain.name}`);
      expect(text).toContain(BUYER.email);
      expect(text).toContain("I have replied by email");
      expect(statusOf(page.body)).toBe("Waiting for the owner's reply");
      expect(page.headers.get("cache-control")).toBe("no-store");
      expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    }
    expect(inquiryRow(harness.app, inquiry.public_id).answered_at).toBeNull();

    const confirmed = await markByEmail(onServer(link));
    expect(confirmed.status).toBe(303);
    const done = await request(harness.app, confirmed.headers.get("location")!);
    expect(done.status).toBe(200);
    expect(visibleText(done.body)).toContain("Thank you: the inquiry is marked as answered by email.");
    expect(visibleText(done.body)).toContain("The owner replied by email.");
    expect(statusOf(done.body)).toBe("The owner replied");
    expect(done.body).not.toContain("I have replied by email");
    const answered = inquiryRow(harness.app, inquiry.public_id);
    expect(answered).toMatchObject({ status: "paid", answered_via: "owner_link" });
    expect(answered.answered_at).toBeTruthy();

    // Posted again (a second tab): refused with a message, and the first answer time is kept.
    const again = await markByEmail(onServer(link));
    expect(again.status).toBe(409);
    expect(visibleText(again.body)).toContain("This inquiry is already answered.");
    expect(inquiryRow(harness.app, inquiry.public_id).answered_at).toBe(answered.answered_at);
  });

  it("answers forged links, links moved to another inquiry and the buyer's link with 404, changing nothing", async () => {
    const first = await payInquiry(harness.app, newDomain(harness.app));
    const second = await payInquiry(harness.app, newDomain(harness.app));
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
      const page = await request(harness.app, path);
      expect(page.status, path).toBe(404);
      expect(page.body, path).not.toContain(BUYER.email);
      const post = await postForm(harness.app, path, { intent: "replied-by-email" });
      expect(post.status, path).toBe(404);
    }
    expect(inquiryRow(harness.app, first.public_id).answered_at).toBeNull();
    expect(inquiryRow(harness.app, second.public_id).answered_at).toBeNull();
    expect((await request(harness.app, good)).status).toBe(200);
  });

  it("an old emailed link (?expires=&signature=) leads to the owner's page, before and after its expiry", async () => {
    const inquiry = await payInquiry(harness.app, newDomain(harness.app));
    const expires = Math.floor(Date.parse(inquiry.reply_deadline_at!) / 1000);
    const old = `/owner-reply/${inquiry.public_id}?expires=${expires}&signature=${sign(inquiry.public_id, expires)}`;
    const target = `/owner-reply/${inquiry.public_id}?sig=${signPage(inquiry.public_id)}`;
    expect((await request(harness.app, old)).headers.get("location")).toBe(target);
    await clock.set(7 * DAY_MS + 60_000);
    try {
      expect((await request(harness.app, old)).headers.get("location")).toBe(target);
    } finally {
      await clock.set(0);
    }
  });

  it("after the deadline: the page says Closed, offers no reply, and a late confirmation is refused", async () => {
    const domain = newDomain(harness.app);
    const inquiry = await payInquiry(harness.app, domain);
    const link = onServer(replyLinkIn(await ownerMail(domain.name)));
    try {
      await clock.set(7 * DAY_MS + 60_000);
      const page = await request(harness.app, link);
      expect(page.status).toBe(200);
      expect(statusOf(page.body)).toBe("Closed");
      expect(visibleText(page.body)).toContain("This inquiry is closed");
      expect(page.body).not.toContain("I have replied by email");
      expect(page.body).not.toContain("Send reply");
      const post = await markByEmail(link);
      expect(post.status).toBe(409);
      expect(visibleText(post.body)).toContain("The reply deadline has passed");
      expect(inquiryRow(harness.app, inquiry.public_id).answered_at).toBeNull();
    } finally {
      await clock.set(0);
    }
    // One minute before the deadline it still works.
    await clock.set(7 * DAY_MS - 60_000);
    try {
      expect((await markByEmail(link)).status).toBe(303);
      expect(inquiryRow(harness.app, inquiry.public_id).answered_at).toBeTruthy();
    } finally {
      await clock.set(0);
    }
  });

  it("answers an unknown inquiry's correctly signed link with 404", async () => {
    const publicId = "no-such-inquiry-0000000";
    expect((await request(harness.app, `/owner-reply/${publicId}?sig=${signPage(publicId)}`)).status).toBe(404);
  });
});

describe("trust signal on the domain page", () => {
  it("shows the owner's median reply time, rounded up to days, once three of their inquiries are answered", async () => {
    // One owner, two domains (the address written differently): reply times count per owner.
    const owner = `Trusted-${Date.now()}@Example.test`;
    const first = newDomain(harness.app, { ownerEmail: owner });
    const second = newDomain(harness.app, { ownerEmail: ` ${owner.toLowerCase()} ` });
    const other = newDomain(harness.app, { ownerEmail: "someone-else@example.test" });

    async function payWithLink(domain: { short: string; name: string }) {
      const inquiry = await payInquiry(harness.app, domain);
      const mail = await waitFor(
        () =>
          harness.smtp.messages.find(
            (m) => mailText(m).includes(`Reference: ${inquiry.public_id}`) && subjectOf(m).startsWith("New inquiry"),
          ),
        10_000,
        "owner email",
      );
      return onServer(replyLinkIn(mail));
    }
    async function confirmAfter(link: string, delayMs: number) {
      await clock.set(delayMs);
      try {
        expect((await postForm(harness.app, link, { intent: "replied-by-email" })).status).toBe(303);
      } finally {
        await clock.set(0);
      }
    }
    const replyText = /Owner usually replies within (\d+) days?/;

    await confirmAfter(await payWithLink(first), 0.5 * DAY_MS);
    await confirmAfter(await payWithLink(second), 2.2 * DAY_MS);
    await confirmAfter(await payWithLink(other), 0.1 * DAY_MS);
    const third = await payWithLink(first);
    // Two answers so far: nothing shown yet (and these pages are now in the page cache).
    for (const domain of [first, second])
      expect((await request(harness.app, `/domain/${domain.short}`)).body).not.toMatch(replyText);

    await confirmAfter(third, 5 * DAY_MS);
    // Median of 0.5, 2.2 and 5 days = 2.2 days -> "within 3 days", on both of the owner's domains:
    // the answer alone (no domain or settings write) must reach the cached pages.
    for (const domain of [first, second]) {
      const page = await request(harness.app, `/domain/${domain.short}`);
      expect(page.body).toContain("Owner usually replies within 3 days");
    }
    // The other owner has one answer: no signal.
    expect((await request(harness.app, `/domain/${other.short}`)).body).not.toMatch(replyText);
  });
});

describe("response window setting (admin Settings)", () => {
  it("is validated on the server: whole days from 1 to 60", async () => {
    const cookie = await adminCookie(harness.app.url, harness.admin);
    const post = (value: string) =>
      http(harness.app, "/admin", {
        cookie,
        form: { intent: "response-window", responseWindowDays: value },
        headers: { Origin: harness.app.origin },
      });
    for (const value of ["0", "61", "7.5", "abc", "", "-1"]) {
      const reply = await post(value);
      expect(reply.status, value).toBe(400);
      expect(visibleText(reply.body)).toContain("The response window must be a whole number of days from 1 to 60.");
    }
    expect(
      harness.app.db().prepare("SELECT value FROM settings WHERE key = 'response_window_days'").get(),
    ).toBeUndefined();
    const saved = await post("14");
    expect(saved.status).toBe(303);
    expect(saved.location).toContain("notice=response-window-updated");
    const panel = await http(harness.app, saved.location!, { cookie });
    expect(visibleText(panel.body)).toContain("Response window updated.");
    expect(panel.body).toMatch(/id="response-window"[^>]*value="14"/);
    try {
      const inquiry = await payInquiry(harness.app, newDomain(harness.app));
      expect(Date.parse(inquiry.reply_deadline_at!) - Date.parse(inquiry.paid_at!)).toBe(14 * DAY_MS);
    } finally {
      harness.app.db().prepare("DELETE FROM settings WHERE key = 'response_window_days'").run();
    }
  });
});

describe("admin inbox: mark answered", () => {
  it("follows the same rule as the owner's link: before the deadline only", async () => {
    const cookie = await adminCookie(harness.app.url, harness.admin);
    const late = await payInquiry(harness.app, newDomain(harness.app));
    const answer = (id: number) =>
      http(harness.app, "/admin/inquiries", {
        cookie,
        form: { intent: "answer", id: String(id) },
        headers: { Origin: harness.app.origin },
      });
    try {
      await clock.set(7 * DAY_MS + 60_000);
      const refused = await answer(late.id);
      expect(refused.status).toBe(303);
      expect(refused.location).toContain("notice=inquiry-answer-refused");
      expect(inquiryRow(harness.app, late.public_id).answered_at).toBeNull();
    } finally {
      await clock.set(0);
    }
    const inTime = await payInquiry(harness.app, newDomain(harness.app));
    const accepted = await answer(inTime.id);
    expect(accepted.location).toContain("notice=inquiry-answered");
    expect(inquiryRow(harness.app, inTime.public_id)).toMatchObject({ answered_via: "admin" });
  });
});

describe("owner's page after the admin acted (issue #12 item 8: say what happened)", () => {
  const adminPost = async (form: Record<string, string>) => {
    const cookie = await adminCookie(harness.app.url, harness.admin);
    return http(harness.app, "/admin/inquiries", { cookie, form, headers: { Origin: harness.app.origin } });
  };

  it("after a refund in the inbox, says Refunded and closed, with nothing to confirm", async () => {
    const domain = newDomain(harness.app);
    const inquiry = await payInquiry(harness.app, domain);
    const link = onServer(replyLinkIn(await ownerMail(domain.name)));
    const refund = await adminPost({ intent: "refund", id: String(inquiry.id), confirmed: "1" });
    expect(refund.location).toContain("notice=inquiry-refunded");
    const page = await request(harness.app, link);
    expect(page.status).toBe(200);
    const text = visibleText(page.body);
    expect(text).toContain("Refunded");
    expect(text).toContain("This inquiry is closed");
    expect(text).not.toContain("I have replied by email");
    const post = await postForm(harness.app, link, { intent: "replied-by-email" });
    expect(post.status).toBe(409);
    expect(visibleText(post.body)).toContain("This inquiry was refunded, so there is no reply to confirm.");
  });

  it("after the admin's Mark answered, says the administrator marked it", async () => {
    const domain = newDomain(harness.app);
    const inquiry = await payInquiry(harness.app, domain);
    const link = onServer(replyLinkIn(await ownerMail(domain.name)));
    expect((await adminPost({ intent: "answer", id: String(inquiry.id) })).location).toContain(
      "notice=inquiry-answered",
    );
    const page = await request(harness.app, link);
    expect(page.status).toBe(200);
    const text = visibleText(page.body);
    expect(text).toContain("The site's administrator marked this inquiry as answered.");
    expect(text).toContain("The owner replied");
    expect(text).not.toContain("I have replied by email");
  });
});
