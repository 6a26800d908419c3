import { beforeAll, describe, expect, it, vi } from "vitest";

const { MESSAGES_PER_HOUR } = vi.hoisted(() => {
  const MESSAGES_PER_HOUR = 6;
  Object.assign(process.env, {
    MAIL_FROM: "Domains <domains@site.example.test>",
    INQUIRY_MESSAGES_PER_HOUR: String(MESSAGES_PER_HOUR),
    RATE_LIMIT_STORE: "database",
    SITE_NAME: "Premium Names",
  });
  return { MESSAGES_PER_HOUR };
});

import { findInquiryByPublicId } from "../../app/server/inquiries/inquiries.server";
import { BUYER, createAdmin, createDomain, createPaidInquiry, type TestAdmin } from "../support/factories";
import { DAY_MS, useTestClock } from "../support/in-process/clock";
import { render } from "../support/in-process/document";
import { sentMail } from "../support/in-process/mail";
import { mailText, subjectOf } from "../support/mail-text";
import { linkIn } from "../support/refund-promise";
import type { ReceivedMail } from "../support/smtp";
import { visibleText } from "../support/visible-text";

// Replies inside the product (issue 23 item 2): the owner answers from the email's link, the buyer from
// their page; each message is stored, emailed to the other side and, from the owner, counts as the reply
// for the refund promise. Bad input is refused and keeps the text. A cross-site post (refused by the
// server before any route) and a conversation across two processes: the integration test of the same name.
const clock = useTestClock();
let admin: TestAdmin;
beforeAll(async () => {
  admin = await createAdmin();
});

const header = (mail: ReceivedMail, name: string) =>
  new RegExp(`^${name}: (.*)$`, "im").exec(mail.raw)?.[1]?.trim() ?? "";
async function mailWith(to: string, subject: string, text?: string) {
  const mail = (await sentMail()).find(
    (m) => m.to.includes(to) && subjectOf(m).startsWith(subject) && (!text || mailText(m).includes(text)),
  );
  if (!mail) throw new Error(`no "${subject}" email to ${to}`);
  return mail;
}
const statusOf = (body: string) =>
  /data-testid="inquiry-status"[^>]*>([^<]*)</.exec(body)?.[1]?.replace(/&#x27;/g, "'");
const inquiryRow = async (publicId: string) => (await findInquiryByPublicId(publicId))!;
const postFromPage = (path: string, fields: Record<string, string>) => render(path, { form: fields });

async function paidConversation(prefix: string) {
  const owner = `${prefix}-owner-${Date.now()}@example.test`;
  const domain = await createDomain({ ownerEmail: owner, prefix });
  const buyerEmail = `${prefix}-${domain.id}@buyer.example`;
  const inquiry = await createPaidInquiry(domain, { buyer: { email: buyerEmail } });
  const ownerLink = linkIn(await mailWith(owner, `New inquiry for ${domain.domain_name}`), "/owner-reply/");
  const buyerLink = linkIn(await mailWith(buyerEmail, "Receipt"), "/inquiry/");
  return { owner, domain, buyerEmail, inquiry, ownerLink, buyerLink };
}

describe("replies inside the product", () => {
  it("the owner replies from the email's link, the buyer reads it and answers, the owner gets the answer", async () => {
    const c = await paidConversation("talk");
    const ownerReply = "Thanks for your interest. The domain is available for $20,000.\nShall we talk?";
    const sent = await postFromPage(c.ownerLink, { intent: "reply", message: ownerReply });
    expect(sent.status).toBe(303);
    expect(sent.location).toBe(`${c.ownerLink}&notice=sent`);
    const ownerPage = await render(sent.location!);
    expect(visibleText(ownerPage.body)).toContain("Your reply was sent.");
    expect(statusOf(ownerPage.body)).toBe("The owner replied");

    // Answered for the refund promise, through the page.
    const row = await inquiryRow(c.inquiry.public_id);
    expect(row.answered_at).toBeTruthy();
    expect(row.answered_via).toBe("page");

    const toBuyer = await mailWith(c.buyerEmail, `Reply from the owner of ${c.domain.domain_name}`);
    expect(header(toBuyer, "From")).toContain("domains@site.example.test");
    expect(header(toBuyer, "Reply-To")).toBe(c.owner);
    expect(mailText(toBuyer)).toContain("Shall we talk?");
    expect(linkIn(toBuyer, "/inquiry/")).toBe(c.buyerLink);

    const buyerPage = await render(c.buyerLink);
    expect(statusOf(buyerPage.body)).toBe("The owner replied");
    const text = visibleText(buyerPage.body);
    expect(text.indexOf(BUYER.message)).toBeLessThan(text.indexOf("The domain is available for $20,000."));
    expect(text).toContain("Your reply to the owner");

    const buyerReply = "Would you take $15,000?";
    const answered = await postFromPage(c.buyerLink, { intent: "reply", message: buyerReply });
    expect(answered.status).toBe(303);
    const toOwner = await mailWith(c.owner, `Reply from ${BUYER.name} about ${c.domain.domain_name}`);
    expect(header(toOwner, "Reply-To")).toBe(c.buyerEmail);
    expect(mailText(toOwner)).toContain(buyerReply);
    expect(linkIn(toOwner, "/owner-reply/")).toBe(c.ownerLink);
    // The answer time of the first reply is kept; the conversation grows in order on both pages.
    expect((await inquiryRow(c.inquiry.public_id)).answered_at).toBe(row.answered_at);
    for (const link of [c.buyerLink, c.ownerLink]) {
      const page = visibleText((await render(link)).body);
      expect(page.indexOf("Shall we talk?")).toBeLessThan(page.indexOf(buyerReply));
    }
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
      const reply = await postFromPage(c.ownerLink, { intent: "reply", message });
      expect(reply.status, error).toBe(400);
      expect(visibleText(reply.body)).toContain(error);
      const field = /<textarea[^>]*id="reply-message"[^>]*>([\s\S]*?)<\/textarea>/.exec(reply.body)?.[1] ?? "";
      if (kept.trim()) expect(field).toBe(kept);
    }
    expect((await inquiryRow(c.inquiry.public_id)).answered_at).toBeNull();
    const ok = await postFromPage(c.ownerLink, { intent: "reply", message: "é".repeat(5000) });
    expect(ok.status).toBe(303);
  });

  it("limits each side's replies per inquiry apart: the buyer's never hold back the owner's reply", async () => {
    const c = await paidConversation("limit");
    const post = (link: string, message: string) => postFromPage(link, { intent: "reply", message });
    for (let i = 0; i < MESSAGES_PER_HOUR; i++) expect((await post(c.buyerLink, `message ${i}`)).status).toBe(303);
    const refused = await post(c.buyerLink, "one too many");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(visibleText(refused.body)).toContain("Too many replies on this inquiry for now.");
    expect(refused.body).toContain(">one too many</textarea>");
    // The owner's side has its own count, and their first reply (the one that keeps the fee) is not counted.
    const first = await post(c.ownerLink, "Thanks for all your questions, here are my answers.");
    expect(first.status).toBe(303);
    expect((await inquiryRow(c.inquiry.public_id)).answered_via).toBe("page");
    for (let i = 0; i < MESSAGES_PER_HOUR; i++) expect((await post(c.ownerLink, `answer ${i}`)).status).toBe(303);
    expect((await post(c.ownerLink, "one too many")).status).toBe(429);
    const other = await paidConversation("limit-other");
    expect((await post(other.buyerLink, "hello")).status).toBe(303);
  });

  it("after the deadline without a reply, the conversation is closed: a reply is refused and kept", async () => {
    const c = await paidConversation("late");
    clock.set(7 * DAY_MS + 60_000);
    for (const link of [c.ownerLink, c.buyerLink]) {
      const late = await postFromPage(link, { intent: "reply", message: "Sorry for the delay" });
      expect(late.status).toBe(409);
      expect(visibleText(late.body)).toContain("This inquiry is closed: your reply was not sent.");
      expect(late.body).toContain(">Sorry for the delay</textarea>");
    }
    expect((await inquiryRow(c.inquiry.public_id)).answered_at).toBeNull();
  });
});

describe("the admin inbox", () => {
  it("shows each inquiry's conversation and status, and the admin replies as the owner (the buyer is told)", async () => {
    const c = await paidConversation("inbox");
    expect((await postFromPage(c.buyerLink, { intent: "reply", message: "Any news from the owner?" })).status).toBe(
      303,
    );
    const cookie = admin.cookie;
    const inbox = () => render(`/admin/inquiries?domain=${c.domain.domain_name}`, { cookie });
    const before = visibleText((await inbox()).body);
    expect(before).toContain("Conversation: Waiting for the owner's reply (1 after the first message)");
    expect(before).toContain("Any news from the owner?");

    const post = (message: string) =>
      render("/admin/inquiries", {
        cookie,
        form: { intent: "reply", id: String(c.inquiry.id), message, returnTo: "/admin/inquiries" },
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
    expect((await inquiryRow(c.inquiry.public_id)).answered_via).toBe("site");
    const after = visibleText((await render(sent.location!, { cookie })).body);
    expect(after).toContain("Reply sent to the buyer.");
    expect(after).toContain("Conversation: The owner replied (2 after the first message)");
    expect(after).toContain("Sent by the site on behalf of the owner.");

    const toBuyer = await mailWith(c.buyerEmail, `Reply from the owner of ${c.domain.domain_name}`, "travelling");
    expect(mailText(toBuyer)).toContain("This reply was sent by Premium Names on behalf of the owner.");
    const page = visibleText((await render(c.buyerLink)).body);
    expect(page).toContain("The owner is travelling and will answer on Monday.");
    expect(page).toContain("Sent by the site on behalf of the owner.");
  });

  it("refuses a reply as the owner once the inquiry is closed, keeping the text", async () => {
    const c = await paidConversation("inbox-closed");
    const cookie = admin.cookie;
    clock.set(7 * DAY_MS + 60_000);
    const late = await render("/admin/inquiries", {
      cookie,
      form: { intent: "reply", id: String(c.inquiry.id), message: "Too late", returnTo: "/admin/inquiries" },
    });
    expect(late.status).toBe(409);
    expect(visibleText(late.body)).toContain("This inquiry is closed: your reply was not sent.");
    expect(late.body).toContain(">Too late</textarea>");
  });
});
