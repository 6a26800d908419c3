import { describe, expect, it } from "vitest";
import { adminCookie } from "../support/admin";
import { postForm, waitFor } from "../support/http";
import { ownerRequest, signInOwner } from "../support/owner";
import { usePromiseServer } from "../support/promise-server";
import { linkIn, mailText, newDomain, payInquiry, subjectOf } from "../support/refund-promise";
import { http, visibleText, withoutSpans } from "./admin-helpers";

// Issue 34 finding 3: an inquiry belongs to the owner it was sent to when paid. The admin changes a
// domain's owner on its page; the new owner's desk, CSV, reply and "I have replied" never reach the
// earlier owner's buyers, and a buyer's later reply still goes to the owner they wrote to.
const harness = usePromiseServer("owner-change", { TRUST_PROXY: "true", REFUND_SCHEDULER_INTERVAL_MS: "3600000" });
const { admin: ADMIN } = harness;

const mailWith = (to: string, subject: string) =>
  waitFor(
    () => harness.smtp.messages.find((m) => m.to.includes(to) && subjectOf(m).startsWith(subject)),
    10_000,
    `${subject} to ${to}`,
  );
const inquiryOf = (id: number) =>
  harness.app.db().prepare("SELECT owner_email, answered_at FROM inquiries WHERE id = ?").get(id) as {
    owner_email: string | null;
    answered_at: string | null;
  };
const messagesOf = (id: number) =>
  (harness.app.db().prepare("SELECT count(*) AS n FROM inquiry_messages WHERE inquiry_id = ?").get(id) as { n: number })
    .n;
const contentVersion = () =>
  Number(
    (harness.app.db().prepare("SELECT version FROM content_version WHERE id = 1").get() as { version: number }).version,
  );

describe("a domain's owner changes", () => {
  it("keeps the earlier buyers with the earlier owner: desk, CSV, reply, I have replied and mail", async () => {
    const app = harness.app;
    const stamp = Date.now();
    const earlierOwner = `earlier-${stamp}@owners.example`;
    // As typed on the domain, capital and spaces: the inquiry keeps it trimmed, the desk ignores case.
    const earlierTyped = `Earlier-${stamp}@owners.example`;
    const newOwner = `new-${stamp}@owners.example`;
    const domain = newDomain(app, { ownerEmail: ` ${earlierTyped} `, prefix: "handover" });
    // Another name keeps the earlier owner able to sign in.
    newDomain(app, { ownerEmail: earlierOwner, prefix: "kept" });
    const earlierBuyer = `earlier-buyer-${stamp}@buyer.example`;
    const earlier = await payInquiry(app, domain, { name: "Earlier Buyer", email: earlierBuyer });
    expect(inquiryOf(earlier.id).owner_email).toBe(earlierTyped);
    const buyerLink = linkIn(await mailWith(earlierBuyer, "Receipt"), "/inquiry/");

    const cookie = await adminCookie(app.url, ADMIN);
    const saved = await http(app, `/admin/domains/${domain.id}`, {
      cookie,
      form: { intent: "owner", ownerEmail: newOwner, trackingId: "new-tracking" },
    });
    expect(saved.status).toBe(303);
    expect(saved.location).toBe(`/admin/domains/${domain.id}?notice=owner-saved`);

    const fresh = await signInOwner(app, harness.smtp, newOwner, "10.34.0.2");
    const desk = visibleText(withoutSpans((await ownerRequest(app, fresh, "/owner")).body));
    expect(desk).toContain(domain.name);
    expect(desk).not.toContain("Earlier Buyer");
    expect(desk).not.toContain(earlierBuyer);
    const csv = await ownerRequest(app, fresh, "/owner/export/inquiries.csv");
    expect(csv.status).toBe(200);
    expect(csv.body).not.toContain(earlierBuyer);

    const reply = await ownerRequest(app, fresh, "/owner", {
      form: { intent: "reply", id: String(earlier.id), message: "I am the new owner." },
    });
    expect(reply.status).toBe(404);
    expect(messagesOf(earlier.id)).toBe(0);
    const answered = await ownerRequest(app, fresh, "/owner", {
      form: { intent: "answered", id: String(earlier.id) },
    });
    expect(answered.status).toBe(404);
    expect(inquiryOf(earlier.id).answered_at).toBeNull();

    // The buyer writes again: the owner they wrote to hears of it, with the link to the owner's page.
    const buyerReply = await postForm(app, buyerLink, { intent: "reply", message: "Still for sale?" });
    expect(buyerReply.status).toBe(303);
    const toEarlier = await mailWith(earlierTyped, "Reply from Earlier Buyer");
    expect(mailText(toEarlier)).toContain("/owner-reply/");
    expect(harness.smtp.messages.some((m) => m.to.includes(newOwner))).toBe(true); // the sign-in code only
    expect(harness.smtp.messages.filter((m) => m.to.includes(newOwner)).map(subjectOf)).not.toContainEqual(
      expect.stringContaining("Earlier Buyer"),
    );

    const kept = await signInOwner(app, harness.smtp, earlierOwner, "10.34.0.1");
    expect(visibleText(withoutSpans((await ownerRequest(app, kept, "/owner")).body))).toContain("Earlier Buyer");
    expect((await ownerRequest(app, kept, "/owner/export/inquiries.csv")).body).toContain(earlierBuyer);

    // A buyer after the change writes to the new owner, whose desk alone lists them.
    const laterBuyer = `later-buyer-${stamp}@buyer.example`;
    const later = await payInquiry(app, domain, { name: "Later Buyer", email: laterBuyer });
    expect(inquiryOf(later.id).owner_email).toBe(newOwner);
    await mailWith(newOwner, `New inquiry for ${domain.name} from Later Buyer`);
    expect(visibleText(withoutSpans((await ownerRequest(app, fresh, "/owner")).body))).toContain("Later Buyer");
    expect(visibleText(withoutSpans((await ownerRequest(app, kept, "/owner")).body))).not.toContain("Later Buyer");
  });

  it("the admin's domain page edits the owner email and tracking ID, with a message for invalid ones", async () => {
    const app = harness.app;
    const domain = newDomain(app, { ownerEmail: "first@owners.example", prefix: "edit" });
    const path = `/admin/domains/${domain.id}`;
    const row = () =>
      app.db().prepare("SELECT owner_email, tracking_id FROM domains WHERE id = ?").get(domain.id) as {
        owner_email: string;
        tracking_id: string;
      };
    const before = row();
    const cookie = await adminCookie(app.url, ADMIN);

    const page = await http(app, path, { cookie });
    expect(page.status).toBe(200);
    expect(page.body).toMatch(/<input[^>]*name="ownerEmail"[^>]*value="first@owners\.example"/);

    const cases: [Record<string, string>, string][] = [
      [{ ownerEmail: "not an email", trackingId: "t-1" }, "Owner email must be a valid email address"],
      [{ ownerEmail: "second@owners.example", trackingId: "   " }, "Tracking ID is required"],
    ];
    for (const [fields, message] of cases) {
      const refused = await http(app, path, { cookie, form: { intent: "owner", ...fields } });
      expect(refused.status).toBe(400);
      expect(visibleText(refused.body)).toContain(`Owner not saved: ${message}`);
      expect(refused.body).toContain('aria-invalid="true"');
      expect(row()).toEqual(before);
    }

    const signedOut = await http(app, path, {
      form: { intent: "owner", ownerEmail: "intruder@evil.example", trackingId: "x" },
    });
    expect(signedOut.status).not.toBe(200);
    expect(row()).toEqual(before);
    const missing = await http(app, "/admin/domains/999999", {
      cookie,
      form: { intent: "owner", ownerEmail: "second@owners.example", trackingId: "x" },
    });
    expect(missing.status).toBe(404);

    const version = contentVersion();
    const saved = await http(app, path, {
      cookie,
      form: { intent: "owner", ownerEmail: "  second@owners.example ", trackingId: " seller-2 " },
    });
    expect(saved.status).toBe(303);
    expect(row()).toEqual({ owner_email: "second@owners.example", tracking_id: "seller-2" });
    // The owner's typical reply time and similar names are public: cached pages are redone.
    expect(contentVersion()).toBeGreaterThan(version);
    const shown = await http(app, saved.location!, { cookie });
    expect(visibleText(shown.body)).toContain("Owner saved.");
    expect(shown.body).toMatch(/<input[^>]*name="trackingId"[^>]*value="seller-2"/);

    // An empty owner email: no owner, the admin gets the inquiries.
    const cleared = await http(app, path, {
      cookie,
      form: { intent: "owner", ownerEmail: "", trackingId: "seller-2" },
    });
    expect(cleared.status).toBe(303);
    expect(row().owner_email).toBe("");
  });
});
