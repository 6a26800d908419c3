import { beforeAll, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  Object.assign(process.env, { ADMIN_EMAIL: "admin@example.test", ADMIN_PASSWORD: "secret-password" });
});

import { db } from "../../app/server/db/database.server";
import { runReconcilePass } from "../../app/server/payments/reconciler.server";
import { dealPagePath } from "../../app/server/sale/deals.server";
import { buyNow, createAdmin, createDomain, type TestAdmin } from "../support/factories";
import { DAY_MS, useTestClock } from "../support/in-process/clock";
import { render } from "../support/in-process/document";
import { sentMail } from "../support/in-process/mail";

// The admin's Deals page (issue 37 items 4 and 5): the list and its CSV, what is owed to each owner and
// "Mark paid out", a late transfer told to the buyer and the admin, and "Refund deal".
const clock = useTestClock();
let admin: TestAdmin;
beforeAll(async () => {
  admin = await createAdmin();
});

/** A name bought now and paid; returns the domain and the deal's public id. */
async function soldName(ownerEmail: string) {
  const domain = await createDomain({ prefix: "deals", priceCents: 300_000, buyNowCents: 250_000, ownerEmail });
  const deal = await buyNow(domain);
  expect(deal.status).toBe("paid");
  return { domain, publicId: deal.public_id };
}

const asAdmin = (path: string, form?: Record<string, string>) => render(path, { cookie: admin.cookie, form });

describe("the admin's Deals page", () => {
  it("is for the admin only", async () => {
    // Signed out: sent to sign in, and a post changes nothing.
    const page = await render("/admin/deals");
    expect([302, 303]).toContain(page.status);
    expect(page.body).not.toContain("Owed to owners");
    const csv = await render("/admin/export/deals.csv");
    expect([302, 303]).toContain(csv.status);
    expect(csv.body).not.toContain("fee_credited");
    const post = await render("/admin/deals", { form: { intent: "refund-deal", deal: "x".repeat(22) } });
    expect([302, 303]).toContain(post.status);
    expect(post.location).not.toContain("notice=refunded");
  });

  it("lists every deal, exports them, and owes the owner a completed sale until marked paid out", async () => {
    const owner = `owner-${Date.now()}@example.test`;
    const { domain, publicId } = await soldName(owner);
    const page = await asAdmin("/admin/deals");
    expect(page.status).toBe(200);
    expect(page.body).toContain(">Deals<");
    expect(page.body).toContain(domain.domain_name);
    expect(page.body).toContain("$2,500");
    expect(page.body).toContain("Paid: waiting for the transfer details");
    // Paid, not completed: nothing is owed yet.
    expect(page.body).toContain("Nothing is owed: no completed sale waits to be paid out.");

    const csv = await asAdmin("/admin/export/deals.csv");
    expect(csv.headers.get("content-type")).toContain("text/csv");
    expect(csv.body).toContain(`"${domain.domain_name}","2500.00","0.00","2500.00"`);

    // Completed: owed until "Mark paid out".
    await render(dealPagePath("owner", publicId), {
      form: { intent: "send-transfer", authCode: "CODE-1", transferNote: "" },
    });
    await render(dealPagePath("buyer", publicId), { form: { intent: "received" } });
    const owed = await asAdmin("/admin/deals");
    expect(owed.body).toContain("Owed to owners");
    expect(owed.body).toContain("$2,500 for 1 sale");
    const through = /name="through" value="([^"]+)"/.exec(owed.body)![1]!;

    // Another sale of the owner completes after the admin read the page: it stays owed.
    clock.advance(60_000);
    const second = await soldName(owner);
    await render(dealPagePath("owner", second.publicId), {
      form: { intent: "send-transfer", authCode: "CODE-2", transferNote: "" },
    });
    await render(dealPagePath("buyer", second.publicId), { form: { intent: "received" } });
    expect((await asAdmin("/admin/deals")).body).toContain("$5,000 for 2 sales");

    const marked = await asAdmin("/admin/deals", { intent: "mark-paid-out", owner, through });
    expect(marked.status).toBe(303);
    const after = await asAdmin(marked.location!);
    expect(after.body).toContain("Marked paid out.");
    expect(after.body).toContain("$2,500 for 1 sale");
    expect(after.body).toContain("Paid out");
    const paidOut = await db
      .selectFrom("deals")
      .select(["public_id", "paid_out_at"])
      .where("owner_email", "=", owner)
      .execute();
    expect(paidOut.find((deal) => deal.public_id === publicId)!.paid_out_at).not.toBeNull();
    expect(paidOut.find((deal) => deal.public_id === second.publicId)!.paid_out_at).toBeNull();
  });

  it("tells the buyer and the admin when the transfer is late, and refunds the deal in full", async () => {
    const { domain, publicId } = await soldName("late-owner@example.test");
    clock.advance(8 * DAY_MS);
    await runReconcilePass();
    await runReconcilePass();
    const mails = (await sentMail()).filter((mail) => mail.raw.includes(domain.domain_name));
    expect(mails.filter((mail) => mail.raw.includes("-deal_transfer_late_buyer@"))).toHaveLength(1);
    expect(mails.filter((mail) => mail.raw.includes("-deal_transfer_late_admin@"))).toHaveLength(1);
    const page = await asAdmin("/admin/deals");
    expect(page.body).toContain("Transfer overdue");
    expect(page.body).toContain("Refund deal");

    const refunded = await asAdmin("/admin/deals", { intent: "refund-deal", deal: publicId });
    expect(refunded.status).toBe(303);
    expect((await asAdmin(refunded.location!)).body).toContain(
      "The deal was refunded in full; the name is back on sale.",
    );
    const deal = await db.selectFrom("deals").selectAll().where("public_id", "=", publicId).executeTakeFirstOrThrow();
    expect(deal.status).toBe("refunded");
    const payment = await db
      .selectFrom("test_payments")
      .select("status")
      .where("id", "=", deal.payment_id!)
      .executeTakeFirstOrThrow();
    expect(payment.status).toBe("refunded");
    // Back on sale: its page and buy now again.
    const back = await render(`/domain/${domain.short}`);
    expect(back.status).toBe(200);
    expect(back.body).toContain("Buy now for $2,500");
    // A second refund is refused with a message.
    const again = await asAdmin("/admin/deals", { intent: "refund-deal", deal: publicId });
    expect(again.status).toBe(409);
    expect(again.body).toContain("Only a paid deal that is not completed can be refunded.");
  });
});
