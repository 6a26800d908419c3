import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../../app/server/db/database.server";
import { findInquiryByPublicId } from "../../app/server/inquiries/inquiries.server";
import { runRefundPass } from "../../app/server/refunds/auto-refund.server";
import { refundInquiry } from "../../app/server/refunds/refunds.server";
import { BUYER, createAdmin, createDomain, createPaidInquiry, type TestAdmin } from "../support/factories";
import { DAY_MS, useTestClock } from "../support/in-process/clock";
import { render } from "../support/in-process/document";
import { sentMail } from "../support/in-process/mail";
import { TEST_ORIGIN } from "../support/in-process/routes";
import { mailText, subjectOf } from "../support/mail-text";
import { linkIn } from "../support/refund-promise";
import { visibleText } from "../support/visible-text";

// Paying with a credit (issue 23 item 4): a code taken instead of a refund pays one inquiry on another
// domain, without a card, exactly once; a refused code keeps the form; a credit-paid inquiry whose owner
// stays silent gets a new credit, never money. One code used twice at once in two processes: the
// integration test of the same name.
const clock = useTestClock();
const REFUSED = "That credit code is unknown, expired or already used.";
let admin: TestAdmin;
beforeAll(async () => {
  admin = await createAdmin();
});

/** The refund scheduler's pass, at the clock's time. */
const refundPass = () => runRefundPass(refundInquiry);
async function mailTo(to: string, subject: string, text = "") {
  const mail = (await sentMail()).find(
    (m) => m.to.includes(to) && subjectOf(m).startsWith(subject) && mailText(m).includes(text),
  );
  if (!mail) throw new Error(`no "${subject}" email to ${to}`);
  return mail;
}
const inquiryForm = (creditCode: string, email = BUYER.email) => ({
  intent: "inquiry",
  ...BUYER,
  email,
  credit_code: creditCode,
});
const publicIdOf = (location: string | null) => new URL(location!, TEST_ORIGIN).searchParams.get("inquiry")!;
const inquiryRow = async (publicId: string) => (await findInquiryByPublicId(publicId))!;

/** A credit the real way: an inquiry whose owner stays silent, and the buyer's "Take a credit instead". */
async function earnCredit(prefix: string): Promise<string> {
  const domain = await createDomain({ prefix });
  const email = `${prefix}-${domain.id}@buyer.example`;
  const inquiry = await createPaidInquiry(domain, { buyer: { email } });
  const link = linkIn(await mailTo(email, "Receipt"), "/inquiry/");
  clock.set(7 * DAY_MS + 60_000);
  try {
    await refundPass();
    await mailTo(email, "Refund or credit");
    const chosen = await render(link, { form: { intent: "choose-credit" } });
    expect(chosen.status).toBe(303);
    expect((await inquiryRow(inquiry.public_id)).status).toBe("paid");
    // Queued at the moved clock: sent before the clock goes back.
    const code = /CR-[2-9A-Z]{4}-[2-9A-Z]{4}-[2-9A-Z]{4}/.exec(
      mailText(await mailTo(email, "Your credit for one inquiry")),
    )?.[0];
    expect(code).toBeTruthy();
    return code!;
  } finally {
    clock.set(0);
  }
}

describe("paying with a credit", () => {
  it("pays a second domain's inquiry without a card, typed in lower case with spaces, and only once", async () => {
    const code = await earnCredit("earn");
    const owner = `credit-owner-${Date.now()}@example.test`;
    const domain = await createDomain({ prefix: "spend", ownerEmail: owner });
    const typed = `  ${code.toLowerCase().replace(/-/g, " ")} `;
    const sent = await render(`/payment/${domain.short}`, { form: inquiryForm(typed, "spender@buyer.example") });
    expect(sent.status).toBe(303);
    const publicId = publicIdOf(sent.location);
    const row = await inquiryRow(publicId);
    // Sent to the domain's owner, for good (issue 34 finding 3): a later owner's desk never lists it.
    expect(row).toMatchObject({ status: "paid", provider: "credit", payment_intent_id: null, owner_email: owner });
    expect(Date.parse(row.reply_deadline_at!) - Date.parse(row.paid_at!)).toBe(7 * DAY_MS);
    const success = await render(sent.location!);
    expect(success.body).toContain("Payment Successful!");
    // Counted in the domain's "N paid", the owner emailed as for a paid inquiry, marked as paid with credit.
    const counted = await db
      .selectFrom("domains")
      .select("inquiry_count")
      .where("id", "=", domain.id)
      .executeTakeFirstOrThrow();
    expect(Number(counted.inquiry_count)).toBe(1);
    const ownerMail = await mailTo(owner, `New inquiry for ${domain.domain_name}`);
    expect(subjectOf(ownerMail)).toContain("(paid with credit)");
    expect(mailText(ownerMail)).toContain("paid with credit");
    const receipt = await mailTo("spender@buyer.example", "Receipt");
    expect(mailText(receipt)).toContain("Inquiry fee: paid with credit");
    expect(mailText(receipt)).toContain("you get a new credit");
    const page = await render(linkIn(receipt, "/inquiry/"));
    expect(visibleText(page.body)).toContain("Inquiry fee Paid with credit");

    // The same code again, and an unknown one: refused with a message, the form kept, nothing stored.
    const other = await createDomain({ prefix: "again" });
    for (const attempt of [code, "CR-2222-3333-4444", "not a code"]) {
      const again = await render(`/payment/${other.short}`, { form: inquiryForm(attempt) });
      expect(again.status, attempt).toBe(400);
      const text = visibleText(again.body);
      expect(text).toContain(REFUSED);
      expect(again.body).toContain(`value="${attempt}"`);
      expect(again.body).toContain(`value="${BUYER.name}"`);
    }
    const stored = await db
      .selectFrom("inquiries")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("domain_id", "=", other.id)
      .executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(0);
  });

  it("a credit-paid inquiry whose owner stays silent gets a new credit, never money", async () => {
    const code = await earnCredit("silent");
    const domain = await createDomain({ prefix: "silentspend" });
    const email = `silent-spender-${domain.id}@buyer.example`;
    const sent = await render(`/payment/${domain.short}`, { form: inquiryForm(code, email) });
    const publicId = publicIdOf(sent.location);
    clock.set(7 * DAY_MS + 60_000);
    await refundPass();
    const fresh = await mailTo(email, "Your credit for one inquiry");
    const newCode = /CR-[2-9A-Z]{4}-[2-9A-Z]{4}-[2-9A-Z]{4}/.exec(mailText(fresh))?.[0];
    expect(newCode).toBeTruthy();
    expect(newCode).not.toBe(code);
    expect(
      (await sentMail()).filter((m) => m.to.includes(email) && subjectOf(m).startsWith("Refund or credit")),
    ).toHaveLength(0);
    clock.set(30 * DAY_MS);
    await refundPass();
    expect((await inquiryRow(publicId)).status).toBe("paid");
    expect((await inquiryRow(publicId)).refunded_at).toBeNull();
  });

  it("the admin inbox counts credits issued, used and open, and fees in money and in credit apart", async () => {
    const inbox = await render("/admin/inquiries", { cookie: admin.cookie });
    const credits = await db
      .selectFrom("credits")
      .select((eb) => [eb.fn.countAll<number>().as("issued"), eb.fn.count<number>("used_at").as("used")])
      .executeTakeFirstOrThrow();
    const text = visibleText(inbox.body);
    expect(Number(credits.used)).toBeGreaterThan(0);
    expect(text).toMatch(new RegExp(`Credits: ${credits.issued} issued, ${credits.used} used, \\d+ open\\.`));
    const creditPaid = await db
      .selectFrom("inquiries")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("provider", "=", "credit")
      .where("status", "=", "paid")
      .executeTakeFirstOrThrow();
    expect(text).toContain(`${creditPaid.n} inquiries paid with credit`);
    expect(text).toContain("Paid with credit");
  });
});
