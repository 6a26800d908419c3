import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeDataDir, startAppServer, type AppServer } from "../support/app-server";
import { insertDomain, uniqueDomainName } from "../support/data";
import { BUYER, postForm, request, waitFor } from "../support/http";
import { startSmtp, type TestSmtp } from "../support/smtp";

// The owner's email through real SMTP: delivered, retried through an outage, resumed after a restart.
let smtp: TestSmtp;
let app: AppServer;

beforeAll(async () => {
  smtp = await startSmtp();
  app = await startAppServer({
    env: { SMTP_URL: smtp.url, MAIL_RETRY_BASE_MS: "200", MAIL_FROM: "Domains <domains@example.test>" },
  });
});
afterAll(async () => {
  await app?.stop();
  if (app) removeDataDir(app);
  await smtp?.stop();
});

/** A buyer pays with the test provider (no JavaScript); returns the inquiry's public id. */
async function payInquiry(server: AppServer, ownerEmail: string, buyer = BUYER) {
  const name = uniqueDomainName("mail");
  insertDomain(server.db(), { name, priceCents: 100_000, ownerEmail });
  const short = name.replace(/\.com$/, "");
  const started = await postForm(server, `/payment/${short}`, { intent: "inquiry", ...buyer });
  const paid = await postForm(server, started.headers.get("location")!, {
    card_number: "4242424242424242",
    expiry: "12/40",
    cvc: "123",
  });
  const success = await request(server, paid.headers.get("location")!);
  expect(success.body).toContain("Payment Successful!");
  return { name, publicId: new URL(paid.headers.get("location")!).searchParams.get("inquiry")! };
}

const mailsFor = (domain: string) => smtp.messages.filter((m) => m.raw.includes(`New inquiry for ${domain}`));

describe("owner notification over SMTP", () => {
  it("sends the owner the buyer's details with a reply-to of the buyer", async () => {
    const { name } = await payInquiry(app, "owner-one@example.test");
    const [mail] = await waitFor(() => mailsFor(name).length > 0 && mailsFor(name), 10_000, "owner email");
    expect(mail!.to).toEqual(["owner-one@example.test"]);
    expect(mail!.from).toBe("domains@example.test");
    expect(mail!.raw).toContain(`Reply-To: ${BUYER.email}`);
    for (const text of [name, BUYER.name, BUYER.email, BUYER.phone, BUYER.offer, BUYER.message])
      expect(mail!.raw).toContain(text);
  });

  it("retries while the SMTP server is down and delivers once it is back, exactly once", async () => {
    await smtp.stop();
    const { name, publicId } = await payInquiry(app, "owner-two@example.test");
    const inquiryId = (app.db().prepare("SELECT id FROM inquiries WHERE public_id = ?").get(publicId) as { id: number })
      .id;
    const failed = await waitFor(
      () =>
        app
          .db()
          .prepare("SELECT attempts, last_error, sent_at FROM outbox WHERE inquiry_id = ? AND attempts >= 2")
          .get(inquiryId) as any,
      10_000,
      "two failed attempts",
    );
    expect(failed.sent_at).toBeNull();
    expect(failed.last_error).toBeTruthy();
    expect(mailsFor(name)).toHaveLength(0);
    await smtp.start();
    await waitFor(() => mailsFor(name).length > 0, 15_000, "delivery after the outage");
    // Every message of the inquiry marked sent: done, no later attempt can deliver one again.
    const unsent = () =>
      Number(
        (
          app
            .db()
            .prepare("SELECT count(*) AS n FROM outbox WHERE inquiry_id = ? AND sent_at IS NULL")
            .get(inquiryId) as {
            n: number | string;
          }
        ).n,
      );
    await waitFor(() => unsent() === 0, 10_000, "the inquiry's messages marked sent");
    expect(mailsFor(name)).toHaveLength(1);
    const row = app.db().prepare("SELECT sent_at FROM outbox WHERE inquiry_id = ?").get(inquiryId) as any;
    expect(row.sent_at).toBeTruthy();
    const inquiry = app.db().prepare("SELECT owner_notified_at FROM inquiries WHERE id = ?").get(inquiryId) as any;
    expect(inquiry.owner_notified_at).toBeTruthy();
  });

  it("a restart resumes the outbox", async () => {
    await smtp.stop();
    const { name } = await payInquiry(app, "owner-three@example.test");
    await app.stop();
    await smtp.start();
    app = await startAppServer({ dataDir: app.dataDir, env: app.env });
    await waitFor(() => mailsFor(name).length > 0, 15_000, "delivery after restart");
    expect(mailsFor(name)).toHaveLength(1);
  });
});
