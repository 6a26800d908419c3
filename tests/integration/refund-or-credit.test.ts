import { describe, expect, it } from "vitest";
import { adminCookie } from "../support/admin";
import { startAppServer, type AppServer } from "../support/app-server";
import { BUYER, postForm, request, waitFor } from "../support/http";
import { DAY_MS, inquiryRow, linkIn, mailText, newDomain, payInquiry, subjectOf } from "../support/refund-promise";
import { http, visibleText } from "./admin-helpers";
import { usePromiseServer } from "../support/promise-server";

// Refund or credit when the owner stays silent (issue 23 item 3), with the refund scheduler running:
// the offer at the deadline, each choice, no choice, two choices at once in two processes, a restart
// between the deadline and the choice, and the admin's "Refund automatically".
const harness = usePromiseServer("refund-or-credit");
const { clock, admin: ADMIN, env } = harness;
const PAST_DEADLINE = 7 * DAY_MS + 60_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const mails = (to: string, subject: string) =>
  harness.smtp.messages.filter((m) => m.to.includes(to) && subjectOf(m).startsWith(subject));
const mailTo = (to: string, subject: string) => waitFor(() => mails(to, subject)[0], 10_000, `${subject} to ${to}`);
const statusOf = (body: string) =>
  /data-testid="inquiry-status"[^>]*>([^<]*)</.exec(body)?.[1]?.replace(/&#x27;/g, "'");
const choose = (server: AppServer, link: string, intent: "choose-refund" | "choose-credit") =>
  request(server, link, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: "null",
      "Sec-Fetch-Site": "same-origin",
    },
    body: new URLSearchParams({ intent }).toString(),
  });

async function silentInquiry(prefix: string) {
  const domain = newDomain(harness.app, { prefix });
  const email = `${prefix}-${domain.id}@buyer.example`;
  const inquiry = await payInquiry(harness.app, domain, { email });
  const link = linkIn(await mailTo(email, "Receipt"), "/inquiry/");
  return { domain, email, inquiry, link };
}

describe("refund or credit (the default for a new site)", () => {
  it("at the deadline the buyer is emailed once and offered both; nothing is refunded yet", async () => {
    const s = await silentInquiry("offer");
    await clock.set(PAST_DEADLINE);
    try {
      const offer = await mailTo(s.email, "Refund or credit");
      expect(linkIn(offer, "/inquiry/")).toBe(s.link);
      expect(mailText(offer)).toContain("your fee is refunded automatically");
      await sleep(500);
      expect(mails(s.email, "Refund or credit")).toHaveLength(1);
      expect(inquiryRow(harness.app, s.inquiry.public_id).status).toBe("paid");
      const page = await request(harness.app, s.link);
      expect(page.body).toContain("Refund my fee");
      expect(page.body).toContain("Take a credit instead");
      expect(statusOf(page.body)).toBe("Closed");
    } finally {
      await clock.set(0);
    }
  });

  it('"Take a credit instead": the code is shown once and emailed; the inquiry is credited and never refunded', async () => {
    const s = await silentInquiry("credit");
    await clock.set(PAST_DEADLINE);
    try {
      await mailTo(s.email, "Refund or credit");
      const chosen = await choose(harness.app, s.link, "choose-credit");
      expect(chosen.status).toBe(303);
      const shown = await request(harness.app, chosen.headers.get("location")!);
      const code = /data-testid="credit-code"[^>]*>([^<]+)</.exec(shown.body)?.[1];
      expect(code).toMatch(/^CR-[2-9A-Z]{4}-[2-9A-Z]{4}-[2-9A-Z]{4}$/);
      expect(statusOf(shown.body)).toBe("Credited");
      expect(visibleText(shown.body)).toContain("This inquiry is closed");
      // Shown once: the same address again, or the plain link, no longer shows it.
      for (const again of [chosen.headers.get("location")!, s.link]) {
        const page = await request(harness.app, again);
        expect(page.body).not.toContain(code!);
        expect(visibleText(page.body)).toContain("Its code was emailed to you.");
      }
      expect(mailText(await mailTo(s.email, "Your credit for one inquiry"))).toContain(code!);
      // A second choice (another tab) is told what happened.
      const late = await choose(harness.app, s.link, "choose-refund");
      expect(late.status).toBe(409);
      expect(visibleText(late.body)).toContain("You already took a credit for this fee.");
      // The admin cannot refund it in money as well: no Refund button, and a forged post is refused.
      const cookie = await adminCookie(harness.app.url, ADMIN);
      const inbox = `/admin/inquiries?domain=${s.domain.name}`;
      const inboxPage = (await http(harness.app, inbox, { cookie })).body;
      expect(visibleText(inboxPage)).not.toContain("Refund $");
      // Its badge says Credited, not "Awaiting answer".
      expect(inboxPage).toMatch(/<span class="[^"]*bg-violet-900[^"]*">Credited<\/span>/);
      const form = { intent: "refund", id: String(s.inquiry.id), returnTo: inbox, confirmed: "1" };
      const forced = await http(harness.app, "/admin/inquiries", { cookie, form });
      expect(forced.status).toBe(409);
      expect(visibleText(forced.body)).toContain("This fee became a credit for the buyer");
      expect(inquiryRow(harness.app, s.inquiry.public_id).status).toBe("paid");
      // Past the time to choose: the scheduler leaves a credited inquiry alone.
      await clock.set(PAST_DEADLINE + 8 * DAY_MS);
      await sleep(600);
      expect(inquiryRow(harness.app, s.inquiry.public_id).status).toBe("paid");
      expect(
        harness.app.db().prepare("SELECT count(*) AS n FROM credits WHERE code = ?").get(code) as { n: number },
      ).toEqual({ n: 1 });
    } finally {
      await clock.set(0);
    }
  });

  it('"Refund my fee": refunded at once', async () => {
    const s = await silentInquiry("refund");
    await clock.set(PAST_DEADLINE);
    try {
      await mailTo(s.email, "Refund or credit");
      const chosen = await choose(harness.app, s.link, "choose-refund");
      expect(chosen.status).toBe(303);
      // Refunded by this request, or by a scheduler pass (every 100 ms here) that claimed it a moment before.
      await waitFor(() => inquiryRow(harness.app, s.inquiry.public_id).status === "refunded", 5_000, "the refund");
      const page = await request(harness.app, chosen.headers.get("location")!);
      expect(statusOf(page.body)).toBe("Refunded");
      expect(page.body).not.toContain("Take a credit instead");
      await mailTo(s.email, "Your inquiry fee");
    } finally {
      await clock.set(0);
    }
  });

  it("without a choice the fee is refunded CREDIT_CHOICE_DAYS (7) after the deadline", async () => {
    const s = await silentInquiry("nochoice");
    await clock.set(PAST_DEADLINE + 6 * DAY_MS);
    try {
      await mailTo(s.email, "Refund or credit");
      await sleep(500);
      expect(inquiryRow(harness.app, s.inquiry.public_id).status).toBe("paid");
      await clock.set(PAST_DEADLINE + 7 * DAY_MS);
      await waitFor(
        () => inquiryRow(harness.app, s.inquiry.public_id).status === "refunded",
        10_000,
        "automatic refund",
      );
      expect(statusOf((await request(harness.app, s.link)).body)).toBe("Refunded");
    } finally {
      await clock.set(0);
    }
  });

  it("two choices at once in two processes: one wins, the other is told what happened", async () => {
    const silent = [await silentInquiry("race"), await silentInquiry("race"), await silentInquiry("race")];
    const second = await startAppServer({ dataDir: harness.app.dataDir, env: env() });
    await clock.set(PAST_DEADLINE);
    try {
      for (const s of silent) await mailTo(s.email, "Refund or credit");
      for (const s of silent) {
        const [a, b] = await Promise.all([
          choose(harness.app, s.link, "choose-credit"),
          choose(second, s.link, "choose-refund"),
        ]);
        const statuses = [a.status, b.status].sort();
        expect(statuses).toEqual([303, 409]);
        const loser = a.status === 409 ? a : b;
        const row = inquiryRow(harness.app, s.inquiry.public_id) as ReturnType<typeof inquiryRow> & {
          credited_at: string | null;
        };
        const credits = (
          harness.app
            .db()
            .prepare(
              "SELECT count(*) AS n FROM credits c JOIN inquiries i ON i.id = c.source_inquiry_id WHERE i.public_id = ?",
            )
            .get(s.inquiry.public_id) as { n: number }
        ).n;
        if (row.credited_at) {
          expect(row.status).toBe("paid");
          expect(credits).toBe(1);
          expect(visibleText(loser.body)).toContain("You already took a credit for this fee.");
        } else {
          expect(row.status).toBe("refunded");
          expect(credits).toBe(0);
          expect(visibleText(loser.body)).toMatch(/Your fee (is already being|has already been) refunded\./);
        }
      }
    } finally {
      await clock.set(0);
      await second.stop();
    }
  });

  it("the admin's Refund and the buyer's credit at once: one of them, never both", async () => {
    const cookie = await adminCookie(harness.app.url, ADMIN);
    const silent = [await silentInquiry("race-a"), await silentInquiry("race-b"), await silentInquiry("race-c")];
    await clock.set(PAST_DEADLINE);
    try {
      for (const s of silent) await mailTo(s.email, "Refund or credit");
      await Promise.all(
        silent.map(async (s) => {
          const form = { intent: "refund", id: String(s.inquiry.id), confirmed: "1" };
          await Promise.all([
            http(harness.app, "/admin/inquiries", { cookie, form }),
            choose(harness.app, s.link, "choose-credit"),
          ]);
          const row = harness.app
            .db()
            .prepare("SELECT status, credited_at, refund_lease_until FROM inquiries WHERE id = ?")
            .get(s.inquiry.id) as { status: string; credited_at: string | null; refund_lease_until: string | null };
          const credits = harness.app
            .db()
            .prepare("SELECT count(*) AS n FROM credits WHERE source_inquiry_id = ?")
            .get(s.inquiry.id) as { n: number };
          expect(row.status === "refunded" ? 1 : 0, s.email).toBe(row.credited_at ? 0 : 1);
          expect(Number(credits.n)).toBe(row.credited_at ? 1 : 0);
          expect(row.refund_lease_until).toBeNull();
        }),
      );
    } finally {
      await clock.set(0);
    }
  });

  it("survives a restart between the deadline and the choice", async () => {
    const s = await silentInquiry("restart");
    await harness.app.stop();
    await clock.set(PAST_DEADLINE);
    try {
      harness.app = await startAppServer({ dataDir: harness.app.dataDir, env: env() });
      await mailTo(s.email, "Refund or credit");
      expect((await choose(harness.app, s.link, "choose-credit")).status).toBe(303);
      await mailTo(s.email, "Your credit for one inquiry");
    } finally {
      await clock.set(0);
    }
  });
});

describe('the admin\'s "Refund automatically"', () => {
  it("refunds at the deadline without offering a choice", async () => {
    const cookie = await adminCookie(harness.app.url, ADMIN);
    const save = (policy: string) =>
      http(harness.app, "/admin", {
        cookie,
        form: { intent: "silence-policy", silencePolicy: policy },
        headers: { Origin: harness.app.origin },
      });
    const panel = await http(harness.app, "/admin", { cookie });
    expect(panel.body).toContain('<input type="radio" name="silencePolicy" checked="" value="choose"/>');
    expect(visibleText(panel.body)).toContain("Let the buyer choose refund or credit");
    expect((await save("refund")).location).toContain("notice=silence-policy-updated");
    try {
      expect((await http(harness.app, "/admin", { cookie })).body).toContain(
        '<input type="radio" name="silencePolicy" checked="" value="refund"/>',
      );
      const s = await silentInquiry("policy");
      await clock.set(PAST_DEADLINE);
      await waitFor(
        () => inquiryRow(harness.app, s.inquiry.public_id).status === "refunded",
        10_000,
        "refund at the deadline",
      );
      expect(mails(s.email, "Refund or credit")).toHaveLength(0);
    } finally {
      await clock.set(0);
      await save("choose");
    }
    expect((await save("something")).status).toBe(400);
  });
});

// Issue 34 items 4 and 5: what the buyer may choose, and when, between the deadline and the scheduler's
// next pass. On this server a pass runs only when a process starts (the interval is an hour).
describe("the choice's rules, between the deadline and the refund pass", () => {
  // Each pass starts a server process: slow on PostgreSQL on a busy machine.
  const SERVER_STARTS_MS = 180_000;
  const slow = usePromiseServer("fee-choice-rules", { REFUND_SCHEDULER_INTERVAL_MS: "3600000" });
  const slowMail = (to: string, subject: string) =>
    waitFor(
      () => slow.smtp.messages.find((m) => m.to.includes(to) && subjectOf(m).startsWith(subject)),
      10_000,
      `${subject} to ${to}`,
    );
  /**
   * A refund pass, as the scheduler runs it: a second process on the same database starts, until `done`
   * (stopping a process ends its pass after the refund at hand).
   */
  async function runPass(done: () => boolean = () => true) {
    const pass = await startAppServer({ dataDir: slow.app.dataDir, env: slow.env() });
    try {
      await waitFor(done, 30_000, "the pass");
    } finally {
      await pass.stop();
    }
  }
  async function paid(prefix: string) {
    const domain = newDomain(slow.app, { prefix });
    const email = `${prefix}-${domain.id}@buyer.example`;
    const inquiry = await payInquiry(slow.app, domain, { email });
    return { email, inquiry, link: linkIn(await slowMail(email, "Receipt"), "/inquiry/") };
  }
  const row = (publicId: string) =>
    inquiryRow(slow.app, publicId) as ReturnType<typeof inquiryRow> & {
      credited_at: string | null;
      fee_choice: string | null;
      credit_offered_at: string | null;
    };
  const offered = (body: string) => /Refund my fee|Take a credit instead|Take a new credit/.test(visibleText(body));

  it(
    "a choice is taken only once it was offered: before the offer the page offers nothing and a post is refused",
    async () => {
      const s = await paid("early");
      await slow.clock.set(PAST_DEADLINE);
      try {
        expect(offered((await request(slow.app, s.link)).body)).toBe(false);
        const early = await choose(slow.app, s.link, "choose-credit");
        expect(early.status).toBe(409);
        expect(visibleText(early.body)).toContain("This choice is not available for this inquiry.");
        expect(row(s.inquiry.public_id).credited_at).toBeNull();
        await runPass();
        await slowMail(s.email, "Refund or credit");
        const page = visibleText((await request(slow.app, s.link)).body);
        expect(page).toContain("Refund my fee");
        expect(page).toContain("Take a credit instead");
        expect((await choose(slow.app, s.link, "choose-credit")).status).toBe(303);
      } finally {
        await slow.clock.set(0);
      }
    },
    SERVER_STARTS_MS,
  );

  it(
    'under "Refund automatically" no choice is offered or taken, also one offered before the switch',
    async () => {
      const cookie = await adminCookie(slow.app.url, slow.admin);
      const save = (policy: string) =>
        http(slow.app, "/admin", {
          cookie,
          form: { intent: "silence-policy", silencePolicy: policy },
          headers: { Origin: slow.app.origin },
        });
      const before = [await paid("switched-a"), await paid("switched-b")];
      await slow.clock.set(PAST_DEADLINE);
      try {
        await runPass();
        for (const s of before) await slowMail(s.email, "Refund or credit");
        expect((await save("refund")).location).toContain("notice=silence-policy-updated");
        await slow.clock.set(0);
        const after = await paid("switched-c");
        await slow.clock.set(PAST_DEADLINE);
        const REFUSED = "Your fee is refunded automatically on this site, so there is nothing to choose.";
        for (const [s, intent] of [
          [before[0]!, "choose-credit"],
          [before[1]!, "choose-refund"],
          [after, "choose-credit"],
        ] as const) {
          expect(offered((await request(slow.app, s.link)).body), s.email).toBe(false);
          const refused = await choose(slow.app, s.link, intent);
          expect(refused.status, s.email).toBe(409);
          expect(visibleText(refused.body)).toContain(REFUSED);
          expect(row(s.inquiry.public_id)).toMatchObject({ fee_choice: null, credited_at: null });
        }
        await runPass(() => [...before, after].every((s) => row(s.inquiry.public_id).status === "refunded"));
        const credits = slow.app
          .db()
          .prepare("SELECT count(*) AS n FROM credits WHERE source_inquiry_id IN (?, ?, ?)")
          .get(...[...before, after].map((s) => s.inquiry.id)) as { n: number };
        expect(Number(credits.n)).toBe(0);
      } finally {
        await slow.clock.set(0);
        await save("choose");
      }
    },
    SERVER_STARTS_MS,
  );

  it(
    "an inquiry paid with a credit offers and takes only a new credit, never a refund",
    async () => {
      const earned = await paid("earned");
      await slow.clock.set(PAST_DEADLINE);
      let code: string;
      try {
        await runPass();
        await slowMail(earned.email, "Refund or credit");
        expect((await choose(slow.app, earned.link, "choose-credit")).status).toBe(303);
        code = /CR-[2-9A-Z]{4}-[2-9A-Z]{4}-[2-9A-Z]{4}/.exec(
          mailText(await slowMail(earned.email, "Your credit for one inquiry")),
        )![0];
      } finally {
        await slow.clock.set(0);
      }
      const domain = newDomain(slow.app, { prefix: "paidwithcredit" });
      const email = `paidwithcredit-${domain.id}@buyer.example`;
      const sent = await postForm(slow.app, `/payment/${domain.short}`, {
        intent: "inquiry",
        ...BUYER,
        email,
        credit_code: code,
      });
      expect(sent.status).toBe(303);
      const publicId = new URL(sent.headers.get("location")!, slow.app.url).searchParams.get("inquiry")!;
      const link = linkIn(await slowMail(email, "Receipt"), "/inquiry/");
      await slow.clock.set(PAST_DEADLINE);
      try {
        const page = visibleText((await request(slow.app, link)).body);
        expect(page).toContain("Take a new credit");
        expect(page).not.toContain("Refund my fee");
        const refused = await choose(slow.app, link, "choose-refund");
        expect(refused.status).toBe(409);
        expect(visibleText(refused.body)).toContain(
          "You paid with a credit, so it comes back as a new credit, never as money.",
        );
        expect(row(publicId)).toMatchObject({ fee_choice: null, status: "paid" });
        expect(visibleText((await request(slow.app, link)).body)).not.toContain("being refunded");
        const taken = await choose(slow.app, link, "choose-credit");
        expect(taken.status).toBe(303);
        const shown = await request(slow.app, taken.headers.get("location")!);
        expect(statusOf(shown.body)).toBe("Credited");
        const fresh = /CR-[2-9A-Z]{4}-[2-9A-Z]{4}-[2-9A-Z]{4}/.exec(
          mailText(await slowMail(email, "Your credit for one inquiry")),
        )?.[0];
        expect(fresh).toBeTruthy();
        expect(fresh).not.toBe(code);
      } finally {
        await slow.clock.set(0);
      }
    },
    SERVER_STARTS_MS,
  );
});
