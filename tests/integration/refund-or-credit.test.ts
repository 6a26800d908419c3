import { describe, expect, it } from "vitest";
import { startServerAt, type AppServer } from "../support/app-server";
import { request, waitFor } from "../support/http";
import { DAY_MS, inquiryRow, linkIn, newDomain, payInquiry, subjectOf } from "../support/refund-promise";
import { visibleText } from "./admin-helpers";
import { usePromiseServer } from "../support/promise-server";

// Refund or credit when the owner stays silent (issue 23 item 3), with the refund scheduler running, where
// it takes processes: two choices at once in two processes, and a restart between the deadline and the
// choice. The offer, each choice, no choice and the admin's "Refund automatically" are tested in process
// (tests/in-process/refund-or-credit.test.ts).
const harness = usePromiseServer("refund-or-credit");
const PAST_DEADLINE = 7 * DAY_MS + 60_000;

const mails = (to: string, subject: string) =>
  harness.smtp.messages.filter((m) => m.to.includes(to) && subjectOf(m).startsWith(subject));
const mailTo = (to: string, subject: string) => waitFor(() => mails(to, subject)[0], 10_000, `${subject} to ${to}`);
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
  it("two choices at once in two processes: one wins, the other is told what happened", async () => {
    const silent = [await silentInquiry("race"), await silentInquiry("race"), await silentInquiry("race")];
    // Two servers on the same database, both past the deadline.
    const first = await startServerAt(harness.app, PAST_DEADLINE);
    const second = await startServerAt(harness.app, PAST_DEADLINE);
    try {
      for (const s of silent) await mailTo(s.email, "Refund or credit");
      for (const s of silent) {
        const [a, b] = await Promise.all([
          choose(first, s.link, "choose-credit"),
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
      await first.stop();
      await second.stop();
    }
  });

  it("survives a restart between the deadline and the choice", async () => {
    const s = await silentInquiry("restart");
    await harness.app.stop();
    // Started again a week and a minute later (the file's last test: the harness stops it).
    harness.app = await startServerAt(harness.app, PAST_DEADLINE);
    await mailTo(s.email, "Refund or credit");
    expect((await choose(harness.app, s.link, "choose-credit")).status).toBe(303);
    await mailTo(s.email, "Your credit for one inquiry");
  });
});
