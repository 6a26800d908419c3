import { beforeAll, describe, expect, it } from "vitest";
import { currentContentVersion } from "../../app/server/db/content-version.server";
import { db } from "../../app/server/db/database.server";
import { CookieJar } from "../support/cookie-jar";
import { createAdmin, createDomain, type TestAdmin } from "../support/factories";
import { payThroughPages } from "../support/in-process/buyer";
import { render } from "../support/in-process/document";
import { sentMail } from "../support/in-process/mail";
import { signInByEmail } from "../support/in-process/owner";
import { mailText, subjectOf } from "../support/mail-text";
import { linkIn } from "../support/refund-promise";
import { visibleText, withoutSpans } from "../support/visible-text";

// Issue 34 finding 3: an inquiry belongs to the owner it was sent to when paid. The admin changes a
// domain's owner on its page; the new owner's desk, CSV, reply and "I have replied" never reach the
// earlier owner's buyers, and a buyer's later reply still goes to the owner they wrote to.
let admin: TestAdmin;
beforeAll(async () => {
  admin = await createAdmin();
});

async function mailWith(to: string, subject: string) {
  const mail = (await sentMail()).find((m) => m.to.includes(to) && subjectOf(m).startsWith(subject));
  if (!mail) throw new Error(`no "${subject}" email to ${to}`);
  return mail;
}
const inquiryOf = (id: number) =>
  db.selectFrom("inquiries").select(["owner_email", "answered_at"]).where("id", "=", id).executeTakeFirstOrThrow();
const messagesOf = async (id: number) =>
  Number(
    (
      await db
        .selectFrom("inquiry_messages")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("inquiry_id", "=", id)
        .executeTakeFirstOrThrow()
    ).n,
  );
const ownerRequest = (jar: CookieJar, path: string, form?: Record<string, string>) => render(path, { jar, form });

describe("a domain's owner changes", () => {
  it("keeps the earlier buyers with the earlier owner: desk, CSV, reply, I have replied and mail", async () => {
    const stamp = Date.now();
    const earlierOwner = `earlier-${stamp}@owners.example`;
    // As typed on the domain, capital and spaces: the inquiry keeps it trimmed, the desk ignores case.
    const earlierTyped = `Earlier-${stamp}@owners.example`;
    const newOwner = `new-${stamp}@owners.example`;
    const domain = await createDomain({ storedOwnerEmail: ` ${earlierTyped} `, prefix: "handover" });
    // Another name keeps the earlier owner able to sign in.
    await createDomain({ ownerEmail: earlierOwner, prefix: "kept" });
    const earlierBuyer = `earlier-buyer-${stamp}@buyer.example`;
    const earlier = await payThroughPages(domain, { name: "Earlier Buyer", email: earlierBuyer });
    expect((await inquiryOf(earlier.id)).owner_email).toBe(earlierTyped);
    const buyerLink = linkIn(await mailWith(earlierBuyer, "Receipt"), "/inquiry/");

    const saved = await render(`/admin/domains/${domain.id}`, {
      cookie: admin.cookie,
      form: { intent: "owner", ownerEmail: newOwner, trackingId: "new-tracking" },
    });
    expect(saved.status).toBe(303);
    expect(saved.location).toBe(`/admin/domains/${domain.id}?notice=owner-saved`);

    const fresh = await signInByEmail(newOwner, "10.34.0.2");
    const desk = visibleText(withoutSpans((await ownerRequest(fresh, "/owner")).body));
    expect(desk).toContain(domain.domain_name);
    expect(desk).not.toContain("Earlier Buyer");
    expect(desk).not.toContain(earlierBuyer);
    const csv = await ownerRequest(fresh, "/owner/export/inquiries.csv");
    expect(csv.status).toBe(200);
    expect(csv.body).not.toContain(earlierBuyer);

    const reply = await ownerRequest(fresh, "/owner", {
      intent: "reply",
      id: String(earlier.id),
      message: "I am the new owner.",
    });
    expect(reply.status).toBe(404);
    expect(await messagesOf(earlier.id)).toBe(0);
    const answered = await ownerRequest(fresh, "/owner", { intent: "answered", id: String(earlier.id) });
    expect(answered.status).toBe(404);
    expect((await inquiryOf(earlier.id)).answered_at).toBeNull();

    // The buyer writes again: the owner they wrote to hears of it, with the link to the owner's page.
    const buyerReply = await render(buyerLink, { form: { intent: "reply", message: "Still for sale?" } });
    expect(buyerReply.status).toBe(303);
    const toEarlier = await mailWith(earlierTyped, "Reply from Earlier Buyer");
    expect(mailText(toEarlier)).toContain("/owner-reply/");
    const toNewOwner = (await sentMail()).filter((m) => m.to.includes(newOwner));
    expect(toNewOwner.length > 0).toBe(true); // the sign-in code only
    expect(toNewOwner.map(subjectOf)).not.toContainEqual(expect.stringContaining("Earlier Buyer"));

    const kept = await signInByEmail(earlierOwner, "10.34.0.1");
    expect(visibleText(withoutSpans((await ownerRequest(kept, "/owner")).body))).toContain("Earlier Buyer");
    expect((await ownerRequest(kept, "/owner/export/inquiries.csv")).body).toContain(earlierBuyer);

    // A buyer after the change writes to the new owner, whose desk alone lists them.
    const laterBuyer = `later-buyer-${stamp}@buyer.example`;
    const later = await payThroughPages(domain, { name: "Later Buyer", email: laterBuyer });
    expect((await inquiryOf(later.id)).owner_email).toBe(newOwner);
    await mailWith(newOwner, `New inquiry for ${domain.domain_name} from Later Buyer`);
    expect(visibleText(withoutSpans((await ownerRequest(fresh, "/owner")).body))).toContain("Later Buyer");
    expect(visibleText(withoutSpans((await ownerRequest(kept, "/owner")).body))).not.toContain("Later Buyer");
  });

  it("the admin's domain page edits the owner email and tracking ID, with a message for invalid ones", async () => {
    const domain = await createDomain({ ownerEmail: "first@owners.example", prefix: "edit" });
    const path = `/admin/domains/${domain.id}`;
    const row = () =>
      db
        .selectFrom("domains")
        .select(["owner_email", "tracking_id"])
        .where("id", "=", domain.id)
        .executeTakeFirstOrThrow();
    const before = await row();
    const cookie = admin.cookie;

    const page = await render(path, { cookie });
    expect(page.status).toBe(200);
    expect(page.body).toMatch(/<input[^>]*name="ownerEmail"[^>]*value="first@owners\.example"/);

    const cases: [Record<string, string>, string][] = [
      [{ ownerEmail: "not an email", trackingId: "t-1" }, "Owner email must be a valid email address"],
      [{ ownerEmail: "second@owners.example", trackingId: "   " }, "Tracking ID is required"],
    ];
    for (const [fields, message] of cases) {
      const refused = await render(path, { cookie, form: { intent: "owner", ...fields } });
      expect(refused.status).toBe(400);
      expect(visibleText(refused.body)).toContain(`Owner not saved: ${message}`);
      expect(refused.body).toContain('aria-invalid="true"');
      expect(await row()).toEqual(before);
    }

    const signedOut = await render(path, {
      form: { intent: "owner", ownerEmail: "intruder@evil.example", trackingId: "x" },
    });
    expect(signedOut.status).not.toBe(200);
    expect(await row()).toEqual(before);
    const missing = await render("/admin/domains/999999", {
      cookie,
      form: { intent: "owner", ownerEmail: "second@owners.example", trackingId: "x" },
    });
    expect(missing.status).toBe(404);

    const version = await currentContentVersion();
    const saved = await render(path, {
      cookie,
      form: { intent: "owner", ownerEmail: "  second@owners.example ", trackingId: " seller-2 " },
    });
    expect(saved.status).toBe(303);
    expect(await row()).toEqual({ owner_email: "second@owners.example", tracking_id: "seller-2" });
    // The owner's typical reply time and similar names are public: cached pages are redone.
    expect(await currentContentVersion()).toBeGreaterThan(version);
    const shown = await render(saved.location!, { cookie });
    expect(visibleText(shown.body)).toContain("Owner saved.");
    expect(shown.body).toMatch(/<input[^>]*name="trackingId"[^>]*value="seller-2"/);

    // An empty owner email: no owner, the admin gets the inquiries.
    const cleared = await render(path, { cookie, form: { intent: "owner", ownerEmail: "", trackingId: "seller-2" } });
    expect(cleared.status).toBe(303);
    expect((await row()).owner_email).toBe("");
  });
});
