import { expect, it } from "vitest";
import { payInquiry } from "../support/admin";
import { removeDataDir, startAppServer, type AppServer } from "../support/app-server";
import { insertDomain, uniqueDomainName } from "../support/data";
import { waitFor } from "../support/http";
import { startSmtp } from "../support/smtp";

// Two server processes on one database (e.g. old and new during a deploy) both drain the mail
// outbox. Each message is claimed with a lease before it is sent, so the real SMTP server receives
// every email exactly once, whichever process sends it.
const PER_SERVER = 12;

it("two servers on one data folder deliver each email once", async () => {
  // A slow mail server (40 ms per message) keeps both processes' drains overlapping.
  const smtp = await startSmtp(0, { acceptDelayMs: 40 });
  const env = { SMTP_URL: smtp.url, MAIL_RETRY_BASE_MS: "50", TRUST_PROXY: "true" };
  const first = await startAppServer({ env });
  let second: AppServer | undefined;
  try {
    second = await startAppServer({ env, dataDir: first.dataDir });
    const domains = [first, second].map((server) => {
      const name = uniqueDomainName("mail2");
      insertDomain(server.db(), { name, priceCents: 300_000, ownerEmail: "owner@example.test" });
      return name.replace(/\.com$/, "");
    });
    // Buyers pay on both servers at once: each payment queues the owner's email and the buyer's
    // receipt, and wakes that process's outbox, which also finds the other process's messages.
    const buyer = (i: number) => ({ name: `Mail Buyer ${i}`, email: `buyer${i}@mail.example`, phone: "", offer: "", message: "Two servers, one outbox." });
    await Promise.all(
      Array.from({ length: PER_SERVER }, async (_, i) => {
        await Promise.all([payInquiry(first, domains[0]!, buyer(i)), payInquiry(second!, domains[1]!, buyer(100 + i))]);
      }),
    );
    const queued = first.db().prepare("SELECT id, kind FROM outbox").all() as { id: number; kind: string }[];
    expect(queued.length).toBeGreaterThanOrEqual(2 * PER_SERVER * 2);

    await waitFor(() => smtp.messages.length >= queued.length, 30_000, "every queued email delivered");
    await waitFor(() => (first.db().prepare("SELECT count(*) AS n FROM outbox WHERE sent_at IS NULL").get() as { n: number }).n === 0, 30_000, "every email marked sent");
    // Both stop gracefully (a drain in progress finishes), so a late duplicate would be counted below.
    expect(await second.stop()).toBe(0);
    expect(await first.stop()).toBe(0);

    const deliveries = new Map<string, number>();
    for (const message of smtp.messages) {
      const id = /^Message-ID: <(outbox-\d+-[\w-]+)@/im.exec(message.raw)?.[1] ?? "no id";
      deliveries.set(id, (deliveries.get(id) ?? 0) + 1);
    }
    const twice = [...deliveries].filter(([, times]) => times > 1);
    expect(twice).toEqual([]);
    expect([...deliveries.keys()].sort()).toEqual(queued.map((row) => `outbox-${row.id}-${row.kind}`).sort());
    console.log(`mail (two servers, one outbox): ${queued.length} emails queued, ${smtp.messages.length} delivered, ${twice.length} sent twice`);
  } finally {
    await second?.stop();
    await first.stop();
    removeDataDir(first);
    await smtp.stop();
  }
});
