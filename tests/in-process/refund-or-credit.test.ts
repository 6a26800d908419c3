import { db } from "../../app/server/db/database.server";
import { findInquiryByPublicId } from "../../app/server/inquiries/inquiries.server";
import { runRefundPass } from "../../app/server/refunds/auto-refund.server";
import { refundInquiry } from "../../app/server/refunds/refunds.server";
import { beforeAll, describe, expect, it } from "vitest";
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
import { linkIn } from "../support/refund-promise";
import { visibleText } from "../support/visible-text";

// Refund or credit when the owner stays silent (issue 23 item 3): the offer at the deadline, each choice,
// no choice, and the admin's "Refund automatically". The refund scheduler's pass runs when a test says
// (refundPass), as the scheduler would run it at that moment. Two choices in two processes and a restart
// between the deadline and the choice: tests/integration/refund-or-credit.test.ts.
const clock = useTestClock();
const PAST_DEADLINE = 7 * DAY_MS + 60_000;
let admin: TestAdmin;
beforeAll(async () => {
  admin = await createAdmin();
});

/** A pass of the refund scheduler (app/server/refunds/auto-refund.server.ts), at the clock's time. */
const refundPass = () => runRefundPass(refundInquiry);
/** The admin signs in now (on the test's clock). */
const adminCookie = () => adminSession(admin.id);

const mails = async (to: string, subject: string) =>
  (await sentMail()).filter((m) => m.to.includes(to) && subjectOf(m).startsWith(subject));
async function mailTo(to: string, subject: string) {
  const [mail] = await mails(to, subject);
  if (!mail) throw new Error(`no "${subject}" email to ${to}`);
  return mail;
}
const statusOf = (body: string) =>
  /data-testid="inquiry-status"[^>]*>([^<]*)</.exec(body)?.[1]?.replace(/&#x27;/g, "'");
const choose = (link: string, intent: "choose-refund" | "choose-credit") => render(link, { form: { intent } });
const inquiryRow = async (publicId: string) => (await findInquiryByPublicId(publicId))!;
async function creditsFrom(inquiryIds: number[]): Promise<number> {
  const row = await db
    .selectFrom("credits")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("source_inquiry_id", "in", inquiryIds)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
const saveSilencePolicy = async (policy: string) =>
  render("/admin", { cookie: await adminCookie(), form: { intent: "silence-policy", silencePolicy: policy } });

/** A buyer paid for an inquiry; the owner never answers. Its link is the buyer's receipt's. */
async function silentInquiry(prefix: string) {
  const domain = await createDomain({ prefix });
  const email = `${prefix}-${domain.id}@buyer.example`;
  const inquiry = await createPaidInquiry(domain, { buyer: { email } });
  const link = linkIn(await mailTo(email, "Receipt"), "/inquiry/");
  return { domain, email, inquiry, link };
}

describe("refund or credit (the default for a new site)", () => {
  it("at the deadline the buyer is emailed once and offered both; nothing is refunded yet", async () => {
    const s = await silentInquiry("offer");
    clock.set(PAST_DEADLINE);
    await refundPass();
    const offer = await mailTo(s.email, "Refund or credit");
    expect(linkIn(offer, "/inquiry/")).toBe(s.link);
    expect(mailText(offer)).toContain("your fee is refunded automatically");
    await refundPass();
    expect(await mails(s.email, "Refund or credit")).toHaveLength(1);
    expect((await inquiryRow(s.inquiry.public_id)).status).toBe("paid");
    const page = await render(s.link);
    expect(page.body).toContain("Refund my fee");
    expect(page.body).toContain("Take a credit instead");
    expect(statusOf(page.body)).toBe("Closed");
  });

  it('"Take a credit instead": the code is shown once and emailed; the inquiry is credited and never refunded', async () => {
    const s = await silentInquiry("credit");
    clock.set(PAST_DEADLINE);
    await refundPass();
    await mailTo(s.email, "Refund or credit");
    const chosen = await choose(s.link, "choose-credit");
    expect(chosen.status).toBe(303);
    const shown = await render(chosen.location!);
    const code = /data-testid="credit-code"[^>]*>([^<]+)</.exec(shown.body)?.[1];
    expect(code).toMatch(/^CR-[2-9A-Z]{4}-[2-9A-Z]{4}-[2-9A-Z]{4}$/);
    expect(statusOf(shown.body)).toBe("Credited");
    expect(visibleText(shown.body)).toContain("This inquiry is closed");
    // Shown once: the same address again, or the plain link, no longer shows it.
    for (const again of [chosen.location!, s.link]) {
      const page = await render(again);
      expect(page.body).not.toContain(code!);
      expect(visibleText(page.body)).toContain("Its code was emailed to you.");
    }
    expect(mailText(await mailTo(s.email, "Your credit for one inquiry"))).toContain(code!);
    // A second choice (another tab) is told what happened.
    const late = await choose(s.link, "choose-refund");
    expect(late.status).toBe(409);
    expect(visibleText(late.body)).toContain("You already took a credit for this fee.");
    // The admin cannot refund it in money as well: no Refund button, and a forged post is refused.
    const cookie = await adminCookie();
    const inbox = `/admin/inquiries?domain=${s.domain.domain_name}`;
    const inboxPage = (await render(inbox, { cookie })).body;
    expect(visibleText(inboxPage)).not.toContain("Refund $");
    // Its badge says Credited, not "Awaiting answer".
    expect(inboxPage).toMatch(/<span class="[^"]*bg-violet-900[^"]*">Credited<\/span>/);
    const form = { intent: "refund", id: String(s.inquiry.id), returnTo: inbox, confirmed: "1" };
    const forced = await render("/admin/inquiries", { cookie, form });
    expect(forced.status).toBe(409);
    expect(visibleText(forced.body)).toContain("This fee became a credit for the buyer");
    expect((await inquiryRow(s.inquiry.public_id)).status).toBe("paid");
    // Past the time to choose: the scheduler leaves a credited inquiry alone.
    clock.set(PAST_DEADLINE + 8 * DAY_MS);
    await refundPass();
    expect((await inquiryRow(s.inquiry.public_id)).status).toBe("paid");
    const withCode = await db
      .selectFrom("credits")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("code", "=", code!)
      .executeTakeFirstOrThrow();
    expect(Number(withCode.n)).toBe(1);
  });

  it('"Refund my fee": refunded at once', async () => {
    const s = await silentInquiry("refund");
    clock.set(PAST_DEADLINE);
    await refundPass();
    await mailTo(s.email, "Refund or credit");
    const chosen = await choose(s.link, "choose-refund");
    expect(chosen.status).toBe(303);
    // Refunded by this request itself: no scheduler pass ran since the offer.
    expect((await inquiryRow(s.inquiry.public_id)).status).toBe("refunded");
    const page = await render(chosen.location!);
    expect(statusOf(page.body)).toBe("Refunded");
    expect(page.body).not.toContain("Take a credit instead");
    await mailTo(s.email, "Your inquiry fee");
  });

  it("without a choice the fee is refunded CREDIT_CHOICE_DAYS (7) after the deadline", async () => {
    const s = await silentInquiry("nochoice");
    clock.set(PAST_DEADLINE + 6 * DAY_MS);
    await refundPass();
    await mailTo(s.email, "Refund or credit");
    await refundPass();
    expect((await inquiryRow(s.inquiry.public_id)).status).toBe("paid");
    clock.set(PAST_DEADLINE + 7 * DAY_MS);
    await refundPass();
    expect((await inquiryRow(s.inquiry.public_id)).status).toBe("refunded");
    expect(statusOf((await render(s.link)).body)).toBe("Refunded");
  });

  it("the admin's Refund and the buyer's credit at once: one of them, never both", async () => {
    const cookie = await adminCookie();
    const silent = [await silentInquiry("race-a"), await silentInquiry("race-b"), await silentInquiry("race-c")];
    clock.set(PAST_DEADLINE);
    await refundPass();
    for (const s of silent) await mailTo(s.email, "Refund or credit");
    await Promise.all(
      silent.map(async (s) => {
        const form = { intent: "refund", id: String(s.inquiry.id), confirmed: "1" };
        await Promise.all([render("/admin/inquiries", { cookie, form }), choose(s.link, "choose-credit")]);
        const row = await inquiryRow(s.inquiry.public_id);
        const credits = await creditsFrom([s.inquiry.id]);
        expect(row.status === "refunded" ? 1 : 0, s.email).toBe(row.credited_at ? 0 : 1);
        expect(credits).toBe(row.credited_at ? 1 : 0);
        expect(row.refund_lease_until).toBeNull();
      }),
    );
  });
});

describe('the admin\'s "Refund automatically"', () => {
  it("refunds at the deadline without offering a choice", async () => {
    const cookie = await adminCookie();
    const panel = await render("/admin", { cookie });
    expect(panel.body).toContain('<input type="radio" name="silencePolicy" checked="" value="choose"/>');
    expect(visibleText(panel.body)).toContain("Let the buyer choose refund or credit");
    expect((await saveSilencePolicy("refund")).location).toContain("notice=silence-policy-updated");
    try {
      expect((await render("/admin", { cookie })).body).toContain(
        '<input type="radio" name="silencePolicy" checked="" value="refund"/>',
      );
      const s = await silentInquiry("policy");
      clock.set(PAST_DEADLINE);
      await refundPass();
      expect((await inquiryRow(s.inquiry.public_id)).status).toBe("refunded");
      expect(await mails(s.email, "Refund or credit")).toHaveLength(0);
    } finally {
      clock.set(0);
      await saveSilencePolicy("choose");
    }
    expect((await saveSilencePolicy("something")).status).toBe(400);
  });
});

// Issue 34 items 4 and 5: what the buyer may choose, and when, between the deadline and the scheduler's
// next pass (which runs here only when the test runs it).
describe("the choice's rules, between the deadline and the refund pass", () => {
  async function paid(prefix: string) {
    const domain = await createDomain({ prefix });
    const email = `${prefix}-${domain.id}@buyer.example`;
    const inquiry = await createPaidInquiry(domain, { buyer: { email } });
    return { email, inquiry, link: linkIn(await mailTo(email, "Receipt"), "/inquiry/") };
  }
  const offered = (body: string) => /Refund my fee|Take a credit instead|Take a new credit/.test(visibleText(body));

  it("a choice is taken only once it was offered: before the offer the page offers nothing and a post is refused", async () => {
    const s = await paid("early");
    clock.set(PAST_DEADLINE);
    expect(offered((await render(s.link)).body)).toBe(false);
    const early = await choose(s.link, "choose-credit");
    expect(early.status).toBe(409);
    expect(visibleText(early.body)).toContain("This choice is not available for this inquiry.");
    expect((await inquiryRow(s.inquiry.public_id)).credited_at).toBeNull();
    await refundPass();
    await mailTo(s.email, "Refund or credit");
    const page = visibleText((await render(s.link)).body);
    expect(page).toContain("Refund my fee");
    expect(page).toContain("Take a credit instead");
    expect((await choose(s.link, "choose-credit")).status).toBe(303);
  });

  it('under "Refund automatically" no choice is offered or taken, also one offered before the switch', async () => {
    const before = [await paid("switched-a"), await paid("switched-b")];
    clock.set(PAST_DEADLINE);
    try {
      await refundPass();
      for (const s of before) await mailTo(s.email, "Refund or credit");
      expect((await saveSilencePolicy("refund")).location).toContain("notice=silence-policy-updated");
      clock.set(0);
      const after = await paid("switched-c");
      clock.set(PAST_DEADLINE);
      const REFUSED = "Your fee is refunded automatically on this site, so there is nothing to choose.";
      for (const [s, intent] of [
        [before[0]!, "choose-credit"],
        [before[1]!, "choose-refund"],
        [after, "choose-credit"],
      ] as const) {
        expect(offered((await render(s.link)).body), s.email).toBe(false);
        const refused = await choose(s.link, intent);
        expect(refused.status, s.email).toBe(409);
        expect(visibleText(refused.body)).toContain(REFUSED);
        expect(await inquiryRow(s.inquiry.public_id)).toMatchObject({ fee_choice: null, credited_at: null });
      }
      await refundPass();
      for (const s of [...before, after]) expect((await inquiryRow(s.inquiry.public_id)).status).toBe("refunded");
      expect(await creditsFrom([...before, after].map((s) => s.inquiry.id))).toBe(0);
    } finally {
      clock.set(0);
      await saveSilencePolicy("choose");
    }
  });

  it("an inquiry paid with a credit offers and takes only a new credit, never a refund", async () => {
    const earned = await paid("earned");
    clock.set(PAST_DEADLINE);
    await refundPass();
    await mailTo(earned.email, "Refund or credit");
    expect((await choose(earned.link, "choose-credit")).status).toBe(303);
    const code = /CR-[2-9A-Z]{4}-[2-9A-Z]{4}-[2-9A-Z]{4}/.exec(
      mailText(await mailTo(earned.email, "Your credit for one inquiry")),
    )![0];
    clock.set(0);
    const domain = await createDomain({ prefix: "paidwithcredit" });
    const email = `paidwithcredit-${domain.id}@buyer.example`;
    const sent = await render(`/payment/${domain.short}`, {
      form: { intent: "inquiry", ...BUYER, email, credit_code: code },
    });
    expect(sent.status).toBe(303);
    const publicId = new URL(sent.location!, "http://localhost").searchParams.get("inquiry")!;
    const link = linkIn(await mailTo(email, "Receipt"), "/inquiry/");
    clock.set(PAST_DEADLINE);
    const page = visibleText((await render(link)).body);
    expect(page).toContain("Take a new credit");
    expect(page).not.toContain("Refund my fee");
    const refused = await choose(link, "choose-refund");
    expect(refused.status).toBe(409);
    expect(visibleText(refused.body)).toContain(
      "You paid with a credit, so it comes back as a new credit, never as money.",
    );
    expect(await inquiryRow(publicId)).toMatchObject({ fee_choice: null, status: "paid" });
    expect(visibleText((await render(link)).body)).not.toContain("being refunded");
    const taken = await choose(link, "choose-credit");
    expect(taken.status).toBe(303);
    const shown = await render(taken.location!);
    expect(statusOf(shown.body)).toBe("Credited");
    const fresh = /CR-[2-9A-Z]{4}-[2-9A-Z]{4}-[2-9A-Z]{4}/.exec(
      mailText((await mails(email, "Your credit for one inquiry")).at(-1)!),
    )?.[0];
    expect(fresh).toBeTruthy();
    expect(fresh).not.toBe(code);
  });
});
