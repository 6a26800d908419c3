import { describe, expect, it } from "vitest";
import { startAppServer, type AppServer } from "../support/app-server";
import { BUYER, request, waitFor } from "../support/http";
import { DAY_MS, inquiryRow, linkIn, mailText, newDomain, payInquiry, subjectOf } from "../support/refund-promise";
import type { ReceivedMail } from "../support/smtp";
import { http, visibleText } from "./admin-helpers";
import { adminCookie } from "../support/admin";
import { usePromiseServer } from "../support/promise-server";

// Replies inside the product (issue 23 item 2) over HTTP and real SMTP: the owner answers from the
// email's link, the buyer from their page; each message is stored, emailed to the other side and, from
// the owner, counts as the reply for the refund promise. Bad input is refused and keeps the text.
const MESSAGES_PER_HOUR = 6;
const harness = usePromiseServer("conversation", {
  MAIL_FROM: "Domains <domains@site.example.test>",
  REFUND_SCHEDULER_INTERVAL_MS: "3600000",
  INQUIRY_MESSAGES_PER_HOUR: String(MESSAGES_PER_HOUR),
  RATE_LIMIT_STORE: "database",
  SITE_NAME: "Premium Names",
});
const { clock, admin: ADMIN, env } = harness;

const header = (mail: ReceivedMail, name: string) =>
  new RegExp(`^${name}: (.*)$`, "im").exec(mail.raw)?.[1]?.trim() ?? "";
const mailWith = (to: string, subject: string, text?: string) =>
  waitFor(
    () =>
      harness.smtp.messages.find(
        (m) => m.to.includes(to) && subjectOf(m).startsWith(subject) && (!text || mailText(m).includes(text)),
      ),
    10_000,
    `${subject} to ${to}`,
  );
const statusOf = (body: string) =>
  /data-testid="inquiry-status"[^>]*>([^<]*)</.exec(body)?.[1]?.replace(/&#x27;/g, "'");

/** A form post as a browser sends it from a page with Referrer-Policy: no-referrer. */
function postFromPage(server: AppServer, path: string, fields: Record<string, string>, site = "same-origin") {
  return request(server, path, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: "null",
      "Sec-Fetch-Site": site,
    },
    body: new URLSearchParams(fields).toString(),
  });
}

async function paidConversation(prefix: string) {
  const owner = `${prefix}-owner-${Date.now()}@example.test`;
  const domain = newDomain(harness.app, { ownerEmail: owner, prefix });
  const buyerEmail = `${prefix}-${domain.id}@buyer.example`;
  const inquiry = await payInquiry(harness.app, domain, { email: buyerEmail });
  const ownerLink = linkIn(await mailWith(owner, `New inquiry for ${domain.name}`), "/owner-reply/");
  const buyerLink = linkIn(await mailWith(buyerEmail, "Receipt"), "/inquiry/");
  return { owner, domain, buyerEmail, inquiry, ownerLink, buyerLink };
}

describe("replies inside the product", () => {
  it("the owner replies from the email's link, the buyer reads it and answers, the owner gets the answer", async () => {
    const c = await paidConversation("talk");
    const ownerReply = "Thanks for your interest. The domain is available for $20,000.\nShall we talk?";
    const sent = await postFromPage(harness.app, c.ownerLink, {
      intent: "reply",
      message: ownerReply,
    });
    expect(sent.status).toBe(303);
    expect(sent.headers.get("location")).toBe(`${c.ownerLink}&notice=sent`);
    const ownerPage = await request(harness.app, sent.headers.get("location")!);
    expect(visibleText(ownerPage.body)).toContain("Your reply was sent.");
    expect(statusOf(ownerPage.body)).toBe("The owner replied");

    // Answered for the refund promise, through the page.
    const row = inquiryRow(harness.app, c.inquiry.public_id);
    expect(row.answered_at).toBeTruthy();
    expect(row.answered_via).toBe("page");

    const toBuyer = await mailWith(c.buyerEmail, `Reply from the owner of ${c.domain.name}`);
    expect(header(toBuyer, "From")).toContain("domains@site.example.test");
    expect(header(toBuyer, "Reply-To")).toBe(c.owner);
    expect(mailText(toBuyer)).toContain("Shall we talk?");
    expect(linkIn(toBuyer, "/inquiry/")).toBe(c.buyerLink);

    const buyerPage = await request(harness.app, c.buyerLink);
    expect(statusOf(buyerPage.body)).toBe("The owner replied");
    const text = visibleText(buyerPage.body);
    expect(text.indexOf(BUYER.message)).toBeLessThan(text.indexOf("The domain is available for $20,000."));
    expect(text).toContain("Your reply to the owner");

    const buyerReply = "Would you take $15,000?";
    const answered = await postFromPage(harness.app, c.buyerLink, {
      intent: "reply",
      message: buyerReply,
    });
    expect(answered.status).toBe(303);
    const toOwner = await mailWith(c.owner, `Reply from ${BUYER.name} about ${c.domain.name}`);
    expect(header(toOwner, "Reply-To")).toBe(c.buyerEmail);
    expect(mailText(toOwner)).toContain(buyerReply);
    expect(linkIn(toOwner, "/owner-reply/")).toBe(c.ownerLink);
    // The answer time of the first reply is kept; the conversation grows in order on both pages.
    expect(inquiryRow(harness.app, c.inquiry.public_id).answered_at).toBe(row.answered_at);
    for (const link of [c.buyerLink, c.ownerLink]) {
      const page = visibleText((await request(harness.app, link)).body);
      expect(page.indexOf("Shall we talk?")).toBeLessThan(page.indexOf(buyerReply));
    }
  });

  it("a cross-site post (Origin null from another site) is refused and stores nothing", async () => {
    const c = await paidConversation("csrf");
    const forged = await postFromPage(harness.app, c.buyerLink, { intent: "reply", message: "forged" }, "cross-site");
    expect(forged.status).not.toBe(303);
    expect(forged.status).not.toBe(404);
    const missing = await request(harness.app, c.buyerLink, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Origin: "https://evil.example",
      },
      body: "intent=reply&message=forged",
    });
    expect(missing.status).not.toBe(303);
    expect(visibleText((await request(harness.app, c.buyerLink)).body)).not.toContain("forged");
  });

  it("refuses an empty reply, one over 5,000 characters and NUL bytes with a message, keeping the text", async () => {
    const c = await paidConversation("invalid");
    const cases: [string, string, string][] = [
      ["", "Write your reply before sending it.", ""],
      ["   \n  ", "Write your reply before sending it.", ""],
      ["x".repeat(5001), "Your reply is 5,001 characters long; the limit is 5,000.", "x".repeat(5001)],
      ["Hello\0 there", "Your reply contained NUL characters", "Hello there"],
    ];
    for (const [message, error, kept] of cases) {
      const reply = await postFromPage(harness.app, c.ownerLink, {
        intent: "reply",
        message,
      });
      expect(reply.status, error).toBe(400);
      expect(visibleText(reply.body)).toContain(error);
      const field = /<textarea[^>]*id="reply-message"[^>]*>([\s\S]*?)<\/textarea>/.exec(reply.body)?.[1] ?? "";
      if (kept.trim()) expect(field).toBe(kept);
    }
    expect(inquiryRow(harness.app, c.inquiry.public_id).answered_at).toBeNull();
    const ok = await postFromPage(harness.app, c.ownerLink, {
      intent: "reply",
      message: "é".repeat(5000),
    });
    expect(ok.status).toBe(303);
  });

  it("limits each side's replies per inquiry apart: the buyer's never hold back the owner's reply", async () => {
    const c = await paidConversation("limit");
    const post = (link: string, message: string) => postFromPage(harness.app, link, { intent: "reply", message });
    for (let i = 0; i < MESSAGES_PER_HOUR; i++) expect((await post(c.buyerLink, `message ${i}`)).status).toBe(303);
    const refused = await post(c.buyerLink, "one too many");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(visibleText(refused.body)).toContain("Too many replies on this inquiry for now.");
    expect(refused.body).toContain(">one too many</textarea>");
    // The owner's side has its own count, and their first reply (the one that keeps the fee) is not counted.
    const first = await post(c.ownerLink, "Thanks for all your questions, here are my answers.");
    expect(first.status).toBe(303);
    expect(inquiryRow(harness.app, c.inquiry.public_id).answered_via).toBe("page");
    for (let i = 0; i < MESSAGES_PER_HOUR; i++) expect((await post(c.ownerLink, `answer ${i}`)).status).toBe(303);
    expect((await post(c.ownerLink, "one too many")).status).toBe(429);
    const other = await paidConversation("limit-other");
    expect((await post(other.buyerLink, "hello")).status).toBe(303);
  });

  it("after the deadline without a reply, the conversation is closed: a reply is refused and kept", async () => {
    const c = await paidConversation("late");
    await clock.set(7 * DAY_MS + 60_000);
    try {
      for (const link of [c.ownerLink, c.buyerLink]) {
        const late = await postFromPage(harness.app, link, {
          intent: "reply",
          message: "Sorry for the delay",
        });
        expect(late.status).toBe(409);
        expect(visibleText(late.body)).toContain("This inquiry is closed: your reply was not sent.");
        expect(late.body).toContain(">Sorry for the delay</textarea>");
      }
      expect(inquiryRow(harness.app, c.inquiry.public_id).answered_at).toBeNull();
    } finally {
      await clock.set(0);
    }
  });

  it("a reply posted through one process shows on the page another process serves", async () => {
    const c = await paidConversation("cluster");
    const second = await startAppServer({ dataDir: harness.app.dataDir, env: env() });
    try {
      expect(
        (
          await postFromPage(second, c.ownerLink, {
            intent: "reply",
            message: "Posted on the second process",
          })
        ).status,
      ).toBe(303);
      expect(visibleText((await request(harness.app, c.buyerLink)).body)).toContain("Posted on the second process");
      expect(
        (
          await postFromPage(harness.app, c.buyerLink, {
            intent: "reply",
            message: "Answered on the first",
          })
        ).status,
      ).toBe(303);
      expect(visibleText((await request(second, c.ownerLink)).body)).toContain("Answered on the first");
    } finally {
      await second.stop();
    }
  });
});

describe("the admin inbox", () => {
  it("shows each inquiry's conversation and status, and the admin replies as the owner (the buyer is told)", async () => {
    const c = await paidConversation("inbox");
    expect(
      (
        await postFromPage(harness.app, c.buyerLink, {
          intent: "reply",
          message: "Any news from the owner?",
        })
      ).status,
    ).toBe(303);
    const cookie = await adminCookie(harness.app.url, ADMIN);
    const inbox = () => http(harness.app, `/admin/inquiries?domain=${c.domain.name}`, { cookie });
    const before = visibleText((await inbox()).body);
    expect(before).toContain("Conversation: Waiting for the owner's reply (1 after the first message)");
    expect(before).toContain("Any news from the owner?");

    const post = (message: string) =>
      http(harness.app, "/admin/inquiries", {
        cookie,
        form: {
          intent: "reply",
          id: String(c.inquiry.id),
          message,
          returnTo: "/admin/inquiries",
        },
        headers: { Origin: harness.app.origin },
      });
    const empty = await post("  ");
    expect(empty.status).toBe(400);
    expect(visibleText(empty.body)).toContain("Write your reply before sending it.");
    const tooLong = await post("y".repeat(5001));
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toContain(`>${"y".repeat(5001)}</textarea>`);

    const sent = await post("The owner is travelling and will answer on Monday.");
    expect(sent.status).toBe(303);
    expect(sent.location).toContain("notice=inquiry-replied");
    expect(inquiryRow(harness.app, c.inquiry.public_id).answered_via).toBe("site");
    const after = visibleText((await http(harness.app, sent.location!, { cookie })).body);
    expect(after).toContain("Reply sent to the buyer.");
    expect(after).toContain("Conversation: The owner replied (2 after the first message)");
    expect(after).toContain("Sent by the site on behalf of the owner.");

    const toBuyer = await mailWith(c.buyerEmail, `Reply from the owner of ${c.domain.name}`, "travelling");
    expect(mailText(toBuyer)).toContain("This reply was sent by Premium Names on behalf of the owner.");
    const page = visibleText((await request(harness.app, c.buyerLink)).body);
    expect(page).toContain("The owner is travelling and will answer on Monday.");
    expect(page).toContain("Sent by the site on behalf of the owner.");
  });

  it("refuses a reply as the owner once the inquiry is closed, keeping the text", async () => {
    const c = await paidConversation("inbox-closed");
    const cookie = await adminCookie(harness.app.url, ADMIN);
    await clock.set(7 * DAY_MS + 60_000);
    try {
      const late = await http(harness.app, "/admin/inquiries", {
        cookie,
        form: {
          intent: "reply",
          id: String(c.inquiry.id),
          message: "Too late",
          returnTo: "/admin/inquiries",
        },
        headers: { Origin: harness.app.origin },
      });
      expect(late.status).toBe(409);
      expect(visibleText(late.body)).toContain("This inquiry is closed: your reply was not sent.");
      expect(late.body).toContain(">Too late</textarea>");
    } finally {
      await clock.set(0);
    }
  });
});
