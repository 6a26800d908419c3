import { describe, expect, it } from "vitest";
import { startAppServer, startServerAt } from "../support/app-server";
import { BUYER, postForm, request, waitFor } from "../support/http";
import { DAY_MS, inquiryRow, linkIn, mailText, newDomain, payInquiry, subjectOf } from "../support/refund-promise";
import { visibleText } from "./admin-helpers";
import { usePromiseServer } from "../support/promise-server";

// Paying with a credit (issue 23 item 4) where it takes processes: one code used twice at once, in two
// servers, pays one inquiry. The rest is tested in process (tests/in-process/credit-payment.test.ts).
const harness = usePromiseServer("credit-payment");
const { env } = harness;
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

/**
 * A credit the real way: an inquiry whose owner stays silent, and the buyer's "Take a credit instead" on a
 * server on the same database a week and a minute later (its scheduler makes the offer).
 */
async function earnCredit(prefix: string): Promise<string> {
  const domain = newDomain(harness.app, { prefix });
  const email = `${prefix}-${domain.id}@buyer.example`;
  const inquiry = await payInquiry(harness.app, domain, { email });
  const link = linkIn(await mailTo(email, "Receipt"), "/inquiry/");
  const later = await startServerAt(harness.app, 7 * DAY_MS + 60_000);
  try {
    await mailTo(email, "Refund or credit");
    const chosen = await request(later, link, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Origin: later.origin,
      },
      body: "intent=choose-credit",
    });
    expect(chosen.status).toBe(303);
    expect(inquiryRow(harness.app, inquiry.public_id).status).toBe("paid");
    const code = /CR-[2-9A-Z]{4}-[2-9A-Z]{4}-[2-9A-Z]{4}/.exec(
      mailText(await mailTo(email, "Your credit for one inquiry")),
    )?.[0];
    expect(code).toBeTruthy();
    return code!;
  } finally {
    await later.stop();
  }
}

describe("paying with a credit", () => {
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
});
