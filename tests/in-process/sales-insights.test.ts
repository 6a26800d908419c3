import { beforeAll, describe, expect, it } from "vitest";
import { buyNow, createAdmin, createDomain, signInOwner, type TestAdmin } from "../support/factories";
import { DAY_MS, useTestClock } from "../support/in-process/clock";
import { render } from "../support/in-process/document";
import { visibleText, withoutSpans } from "../support/visible-text";

// Insights count sales and revenue by month (issue 37 item 5): deals paid (paid, transferred or
// completed) by the month they were paid, the sum of their prices; a refunded deal or an unpaid buy now
// is no sale. The admin's insights count every owner's; an owner's, only theirs.
const clock = useTestClock();
const ALICE = "alice-sales@owners.example";
const BOB = "bob-sales@owners.example";
const CAROL = "carol-sales@owners.example";
const month = (msAgo: number) => new Date(Date.now() - msAgo).toISOString().slice(0, 7);
let admin: TestAdmin;

/** A name of `owner` bought now at `cents`; paid through the test checkout when `pay`. Returns the deal's id. */
async function sale(owner: string, cents: number, pay = true): Promise<string> {
  const domain = await createDomain({
    prefix: "sales",
    priceCents: cents + 100_000,
    buyNowCents: cents,
    ownerEmail: owner,
  });
  return (await buyNow(domain, { pay })).public_id;
}

beforeAll(async () => {
  admin = await createAdmin();
  // 40 days ago: always last month or the one before, never this one.
  clock.set(-40 * DAY_MS);
  await sale(ALICE, 250_000);
  clock.set(0);
  await sale(ALICE, 100_000);
  await sale(ALICE, 70_000, false);
  const refunded = await sale(ALICE, 900_000);
  const back = await render("/admin/deals", { cookie: admin.cookie, form: { intent: "refund-deal", deal: refunded } });
  expect(back.location).toContain("notice=refunded");
  await sale(BOB, 400_050);
});

/** The Sales section of a page, and its row for one month as text ("Nov 2026 2 $5,000.50"). */
function salesOf(body: string) {
  const section = /data-insights="sales"[\s\S]*?<\/section>/.exec(body)?.[0] ?? "";
  const row = (yearMonth: string) =>
    visibleText(withoutSpans(new RegExp(`data-month-row="${yearMonth}"[\\s\\S]*?</tr>`).exec(section)?.[0] ?? ""))
      .replace(/^[^>]*>/, "")
      .trim();
  return { section, text: visibleText(withoutSpans(section)), row };
}

describe("sales and revenue in the insights", () => {
  it("counts every owner's paid deals by month on the admin's insights, refunds and unpaid left out", async () => {
    const page = await render("/admin/insights", { cookie: admin.cookie });
    expect(page.status).toBe(200);
    const sales = salesOf(page.body);
    expect(sales.text).toContain("Sales and revenue");
    expect(sales.row(month(0))).toMatch(/^\w{3} \d{4} 2 \$5,000\.50$/);
    expect(sales.row(month(40 * DAY_MS))).toMatch(/^\w{3} \d{4} 1 \$2,500$/);
    expect(sales.section).toContain("3 sales, $7,500.50 in revenue.");
  });

  it("counts only the owner's own sales on their desk, and says when there are none", async () => {
    const alice = salesOf((await render("/owner", { cookie: await signInOwner(ALICE) })).body);
    expect(alice.row(month(0))).toMatch(/^\w{3} \d{4} 1 \$1,000$/);
    expect(alice.row(month(40 * DAY_MS))).toMatch(/^\w{3} \d{4} 1 \$2,500$/);
    expect(alice.section).toContain("2 sales, $3,500 in revenue.");
    await createDomain({ prefix: "nosales", ownerEmail: CAROL });
    const carol = salesOf((await render("/owner", { cookie: await signInOwner(CAROL) })).body);
    expect(carol.text).toContain("No sales in the last 12 months");
    expect(carol.section).not.toContain("<svg");
  });
});
