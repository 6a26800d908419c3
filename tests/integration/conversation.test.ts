import { describe, expect, it } from "vitest";
import { startAppServer, type AppServer } from "../support/app-server";
import { request, waitFor } from "../support/http";
import { linkIn, mailText, newDomain, payInquiry, subjectOf } from "../support/refund-promise";
import { visibleText } from "./admin-helpers";
import { usePromiseServer } from "../support/promise-server";

// Replies inside the product (issue 23 item 2) where it takes a server: a cross-site post is refused
// before any route, and a conversation goes on across two processes. The rest (replies, their emails,
// bad input, the limits, the deadline, the admin inbox) is tested in process
// (tests/in-process/conversation.test.ts).
const MESSAGES_PER_HOUR = 6;
const harness = usePromiseServer("conversation", {
  MAIL_FROM: "Domains <domains@site.example.test>",
  REFUND_SCHEDULER_INTERVAL_MS: "3600000",
  INQUIRY_MESSAGES_PER_HOUR: String(MESSAGES_PER_HOUR),
  RATE_LIMIT_STORE: "database",
  SITE_NAME: "Premium Names",
});
const { env } = harness;

const mailWith = (to: string, subject: string, text?: string) =>
  waitFor(
    () =>
      harness.smtp.messages.find(
        (m) => m.to.includes(to) && subjectOf(m).startsWith(subject) && (!text || mailText(m).includes(text)),
      ),
    10_000,
    `${subject} to ${to}`,
  );
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
