import { describe, expect, it } from "vitest";
import { adminCookie } from "../support/admin";
import { startAppServer } from "../support/app-server";
import { BUYER, postForm, request, waitFor } from "../support/http";
import { DAY_MS, inquiryRow, linkIn, mailText, newDomain, payInquiry, subjectOf } from "../support/refund-promise";
import { http, visibleText } from "./admin-helpers";
import { usePromiseServer } from "../support/promise-server";

// Paying with a credit (issue 23 item 4): a code taken instead of a refund pays one inquiry on another
// domain, without a card, exactly once (also when used twice at once in two processes); a refused code
// keeps the form; a credit-paid inquiry whose owner stays silent gets a new credit, never money.
const harness = usePromiseServer("credit-payment");
const { clock, admin: ADMIN, env } = harness;
const REFUSED = "That credit code is unknown, expired or already used.";

const mailTo = (to: string, subject: string, text = "") =>
  waitFor(
    () =>
      harness.smtp.messages.find(
        (m) => m.to.includes(to) && subjectOf(m).startsWith(subject) && mailText(m).includes(text),
      ),
    10_000,
    `${subject} to ${to}`,
  );
const inquiryForm = (domain: { short: string }, creditCode: string, email = BUYER.email) => ({
  intent: "inquiry",
  ...BUYER,
  email,
  credit_code: creditCode,
});
const publicIdOf = (location: string | null) => new URL(location!, harness.app.url).searchParams.get("inquiry")!;

/** A credit the real way: an inquiry whose owner stays silent, and the buyer's "Take a credit instead". */
async function earnCredit(prefix: string): Promise<string> {
  const domain = newDomain(harness.app, { prefix });
  const email = `${prefix}-${domain.id}@buyer.example`;
  const inquiry = await payInquiry(harness.app, domain, { email });
  const link = linkIn(await mailTo(email, "Receipt"), "/inquiry/");
  await clock.set(7 * DAY_MS + 60_000);
  try {
    await mailTo(email, "Refund or credit");
    const chosen = await request(harness.app, link, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Origin: harness.app.origin,
      },
      body: "intent=choose-credit",
    });
    expect(chosen.status).toBe(303);
    expect(inquiryRow(harness.app, inquiry.public_id).status).toBe("paid");
    // Queued at the moved clock: delivered before the clock goes back.
    const code = /CR-[2-9A-Z]{4}-[2-9A-Z]{4}-[2-9A-Z]{4}/.exec(
      mailText(await mailTo(email, "Your credit for one inquiry")),
    )?.[0];
    expect(code).toBeTruthy();
    return code!;
  } finally {
    await clock.set(0);
  }
}

describe("paying with a credit", () => {
  it("pays a second domain's inquiry without a card, typed in lower case with spaces, and only once", async () => {
    const code = await earnCredit("earn");
    const owner = `credit-owner-${Date.now()}@example.test`;
    const domain = newDomain(harness.app, { prefix: "spend", ownerEmail: owner });
    const typed = `  ${code.toLowerCase().replace(/-/g, " ")} `;
    const sent = await postForm(
      harness.app,
      `/payment/${domain.short}`,
      inquiryForm(domain, typed, "spender@buyer.example"),
    );
    expect(sent.status).toBe(303);
    const publicId = publicIdOf(sent.headers.get("location"));
    const row = inquiryRow(harness.app, publicId) as ReturnType<typeof inquiryRow> & {
      provider: string;
      amount_cents: number;
      owner_email: string | null;
    };
    // Sent to the domain's owner, for good (issue 34 finding 3): a later owner's desk never lists it.
    expect(row).toMatchObject({
      status: "paid",
      provider: "credit",
      payment_intent_id: null,
      owner_email: owner,
    });
    expect(Date.parse(row.reply_deadline_at!) - Date.parse(row.paid_at!)).toBe(7 * DAY_MS);
    const success = await request(harness.app, sent.headers.get("location")!);
    expect(success.body).toContain("Payment Successful!");
    // Counted in the domain's "N paid", the owner emailed as for a paid inquiry, marked as paid with credit.
    expect(
      (harness.app.db().prepare("SELECT inquiry_count AS n FROM domains WHERE id = ?").get(domain.id) as { n: number })
        .n,
    ).toBe(1);
    const ownerMail = await mailTo(owner, `New inquiry for ${domain.name}`);
    expect(subjectOf(ownerMail)).toContain("(paid with credit)");
    expect(mailText(ownerMail)).toContain("paid with credit");
    const receipt = await mailTo("spender@buyer.example", "Receipt");
    expect(mailText(receipt)).toContain("Inquiry fee: paid with credit");
    expect(mailText(receipt)).toContain("you get a new credit");
    const page = await request(harness.app, linkIn(receipt, "/inquiry/"));
    expect(visibleText(page.body)).toContain("Inquiry fee Paid with credit");

    // The same code again, and an unknown one: refused with a message, the form kept, nothing stored.
    const other = newDomain(harness.app, { prefix: "again" });
    for (const attempt of [code, "CR-2222-3333-4444", "not a code"]) {
      const again = await postForm(harness.app, `/payment/${other.short}`, inquiryForm(other, attempt));
      expect(again.status, attempt).toBe(400);
      const text = visibleText(again.body);
      expect(text).toContain(REFUSED);
      expect(again.body).toContain(`value="${attempt}"`);
      expect(again.body).toContain(`value="${BUYER.name}"`);
    }
    expect(
      (
        harness.app.db().prepare("SELECT count(*) AS n FROM inquiries WHERE domain_id = ?").get(other.id) as {
          n: number;
        }
      ).n,
    ).toBe(0);
  });

  it("one code used twice at once, in two processes: one inquiry, the other refused", async () => {
    const second = await startAppServer({ dataDir: harness.app.dataDir, env: env() });
    try {
      for (let round = 0; round < 2; round++) {
        const code = await earnCredit(`race${round}`);
        const [a, b] = [newDomain(harness.app, { prefix: "racea" }), newDomain(harness.app, { prefix: "raceb" })];
        const replies = await Promise.all([
          postForm(harness.app, `/payment/${a.short}`, inquiryForm(a, code)),
          postForm(second, `/payment/${b.short}`, inquiryForm(b, code)),
        ]);
        expect(replies.map((r) => r.status).sort()).toEqual([303, 400]);
        expect(visibleText(replies.find((r) => r.status === 400)!.body)).toContain(REFUSED);
        const used = harness.app
          .db()
          .prepare("SELECT used_by_inquiry_id AS id FROM credits WHERE code = ?")
          .get(code) as { id: number };
        const paidWithIt = harness.app
          .db()
          .prepare("SELECT id FROM inquiries WHERE provider = 'credit' AND domain_id IN (?, ?)")
          .all(a.id, b.id) as { id: number }[];
        expect(paidWithIt.map((r) => r.id)).toEqual([used.id]);
      }
    } finally {
      await second.stop();
    }
  });

  it("a credit-paid inquiry whose owner stays silent gets a new credit, never money", async () => {
    const code = await earnCredit("silent");
    const domain = newDomain(harness.app, { prefix: "silentspend" });
    const email = `silent-spender-${domain.id}@buyer.example`;
    const sent = await postForm(harness.app, `/payment/${domain.short}`, inquiryForm(domain, code, email));
    const publicId = publicIdOf(sent.headers.get("location"));
    await clock.set(7 * DAY_MS + 60_000);
    try {
      const fresh = await mailTo(email, "Your credit for one inquiry");
      const newCode = /CR-[2-9A-Z]{4}-[2-9A-Z]{4}-[2-9A-Z]{4}/.exec(mailText(fresh))?.[0];
      expect(newCode).toBeTruthy();
      expect(newCode).not.toBe(code);
      expect(
        harness.smtp.messages.filter((m) => m.to.includes(email) && subjectOf(m).startsWith("Refund or credit")),
      ).toHaveLength(0);
      await clock.set(30 * DAY_MS);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(inquiryRow(harness.app, publicId).status).toBe("paid");
      expect(inquiryRow(harness.app, publicId).refunded_at).toBeNull();
    } finally {
      await clock.set(0);
    }
  });

  it("the admin inbox counts credits issued, used and open, and fees in money and in credit apart", async () => {
    const cookie = await adminCookie(harness.app.url, ADMIN);
    const inbox = await http(harness.app, "/admin/inquiries", { cookie });
    const credits = harness.app
      .db()
      .prepare("SELECT count(*) AS issued, count(used_at) AS used FROM credits")
      .get() as { issued: number; used: number };
    const text = visibleText(inbox.body);
    expect(text).toMatch(new RegExp(`Credits: ${credits.issued} issued, ${credits.used} used, \\d+ open\\.`));
    const creditPaid = (
      harness.app
        .db()
        .prepare("SELECT count(*) AS n FROM inquiries WHERE provider = 'credit' AND status = 'paid'")
        .get() as { n: number }
    ).n;
    expect(text).toContain(`${creditPaid} inquiries paid with credit`);
    expect(text).toContain("Paid with credit");
  });
});
