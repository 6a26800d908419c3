import { describe, expect, it } from "vitest";
import { startServerAt, type AppServer } from "../support/app-server";
import { postForm, request, waitFor } from "../support/http";
import { DAY_MS, mailText, newDomain, onServer, payInquiry, replyLinkIn, subjectOf } from "../support/refund-promise";
import { usePromiseServer } from "../support/promise-server";

// The trust signal over HTTP and real SMTP: an owner's answers reach the domain pages the page cache
// keeps. The rest of the refund promise's buyer and owner side (the receipt, the owner's signed link,
// the response window) is tested in process (tests/in-process/owner-reply-link.test.ts).
const harness = usePromiseServer("owner-reply-link", {
  SESSION_SECRET: "refund-promise-test-secret-0123456789",
  PUBLIC_URL: "https://domains.example.test",
  // This file never lets a refund run: it checks the owner's side only (see auto-refund.test.ts).
  REFUND_SCHEDULER_INTERVAL_MS: "3600000",
});

describe("trust signal on the domain page", () => {
  it(
    "shows the owner's median reply time, rounded up to days, once three of their inquiries are answered",
    { timeout: 120_000 },
    async () => {
      // One owner, two domains (the address written differently): reply times count per owner.
      const owner = `Trusted-${Date.now()}@Example.test`;
      const first = newDomain(harness.app, { ownerEmail: owner });
      const second = newDomain(harness.app, { ownerEmail: ` ${owner.toLowerCase()} ` });
      const other = newDomain(harness.app, { ownerEmail: "someone-else@example.test" });

      // A reply time is the answer's time less the payment's: each inquiry is paid on a server on the same
      // database whose clock runs that long behind, and answered on the harness's server (real time), whose
      // page cache must hear of the answer.
      const delays = [0.1 * DAY_MS, 0.5 * DAY_MS, 2.2 * DAY_MS, 5 * DAY_MS];
      const started = delays.map((delayMs) => startServerAt(harness.app, -delayMs));
      const earlier = new Map<number, AppServer>();
      const paidBefore = (delayMs: number) => earlier.get(delayMs)!;
      async function payWithLink(domain: { short: string; name: string }, delayMs: number) {
        const inquiry = await payInquiry(paidBefore(delayMs), domain);
        const mail = await waitFor(
          () =>
            harness.smtp.messages.find(
              (m) => mailText(m).includes(`Reference: ${inquiry.public_id}`) && subjectOf(m).startsWith("New inquiry"),
            ),
          10_000,
          "owner email",
        );
        return onServer(replyLinkIn(mail));
      }
      async function confirm(link: string) {
        expect((await postForm(harness.app, link, { intent: "replied-by-email" })).status).toBe(303);
      }
      const replyText = /Owner usually replies within (\d+) days?/;

      try {
        for (const [i, delayMs] of delays.entries()) earlier.set(delayMs, await started[i]!);
        await confirm(await payWithLink(first, 0.5 * DAY_MS));
        await confirm(await payWithLink(second, 2.2 * DAY_MS));
        await confirm(await payWithLink(other, 0.1 * DAY_MS));
        const third = await payWithLink(first, 5 * DAY_MS);
        // Two answers so far: nothing shown yet (and these pages are now in the page cache).
        for (const domain of [first, second])
          expect((await request(harness.app, `/domain/${domain.short}`)).body).not.toMatch(replyText);

        await confirm(third);
        // Median of 0.5, 2.2 and 5 days = 2.2 days -> "within 3 days", on both of the owner's domains:
        // the answer alone (no domain or settings write) must reach the cached pages.
        for (const domain of [first, second]) {
          const page = await request(harness.app, `/domain/${domain.short}`);
          expect(page.body).toContain("Owner usually replies within 3 days");
        }
        // The other owner has one answer: no signal.
        expect((await request(harness.app, `/domain/${other.short}`)).body).not.toMatch(replyText);
      } finally {
        for (const server of await Promise.allSettled(started))
          if (server.status === "fulfilled") await server.value.stop();
      }
    },
  );
});
