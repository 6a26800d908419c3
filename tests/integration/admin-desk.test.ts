import { beforeAll, describe, expect, it } from "vitest";
import { adminCookie, insertPaidInquiry, payInquiry, TEST_ADMIN } from "../support/admin";
import { insertDomain, uniqueDomainName } from "../support/data";
import { useAppServer } from "../support/vitest-server";
import { http, visibleText } from "./admin-helpers";

// Issue 26 item 9: the Admin Panel's first row, from the server's records. This file has a server of
// its own, so the whole database's numbers are the ones set up here.
const app = useAppServer({
  env: { ADMIN_EMAIL: TEST_ADMIN.email, ADMIN_PASSWORD: TEST_ADMIN.password, SEED_DEMO: "false" },
});
let cookie: string;
beforeAll(async () => {
  cookie = await adminCookie(app.url);
});

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

/** A paid inquiry, then the columns that say what became of it. */
function inquiry(
  domain: { id: number; name: string },
  who: string,
  facts: {
    amountCents: number;
    paidAt: string;
    provider?: string;
    offer?: string;
    set?: Record<string, string | number | null>;
  },
): number {
  const id = insertPaidInquiry(app.db(), {
    domainId: domain.id,
    domainName: domain.name,
    name: who,
    amountCents: facts.amountCents,
    paidAt: facts.paidAt,
    provider: facts.provider,
  });
  const set = { ...facts.set, ...(facts.offer === undefined ? {} : { offer: facts.offer }) };
  for (const [column, value] of Object.entries(set))
    app.db().prepare(`UPDATE inquiries SET ${column} = ? WHERE id = ?`).run(value, id);
  return id;
}

function statText(html: string, stat: string): string {
  const match = new RegExp(`data-stat="${stat}"[^>]*>([\\s\\S]*?)</dd>`).exec(html);
  if (!match) throw new Error(`no ${stat} on the page`);
  return visibleText(match[1]!).trim();
}

describe("the admin's desk", () => {
  it("shows inquiries awaiting reply with the nearest deadline, and 30-day fees net of refunds", async () => {
    const name = uniqueDomainName("desk");
    const domain = { id: insertDomain(app.db(), { name, priceCents: 2_450_000 }), name };
    // Awaiting a reply: two paid in money and one paid with a credit (awaiting, but no money).
    inquiry(domain, "Due In Two Days", {
      amountCents: 1_000,
      paidAt: at(-DAY),
      set: { reply_deadline_at: at(2 * DAY + HOUR) },
    });
    inquiry(domain, "Due Soonest", {
      amountCents: 2_000,
      paidAt: at(-2 * HOUR),
      set: { reply_deadline_at: at(5 * HOUR + 20 * 60_000) },
    });
    inquiry(domain, "Paid With Credit", {
      amountCents: 1_999,
      paidAt: at(-HOUR),
      provider: "credit",
      set: { reply_deadline_at: at(3 * DAY) },
    });
    // Not awaiting: answered, credited, past its deadline, refunded, unpaid.
    inquiry(domain, "Answered", {
      amountCents: 4_000,
      paidAt: at(-2 * DAY),
      set: { answered_at: at(-DAY), reply_deadline_at: at(DAY) },
    });
    inquiry(domain, "Credited", {
      amountCents: 8_000,
      paidAt: at(-9 * DAY),
      set: { reply_deadline_at: at(-2 * DAY), credited_at: at(-DAY) },
    });
    inquiry(domain, "Past Deadline", {
      amountCents: 16_000,
      paidAt: at(-8 * DAY),
      set: { reply_deadline_at: at(-HOUR) },
    });
    inquiry(domain, "Refunded Recently", {
      amountCents: 32_000,
      paidAt: at(-10 * DAY),
      set: { status: "refunded", refunded_at: at(-3 * DAY), reply_deadline_at: at(-3 * DAY) },
    });
    // Paid before the 30 days, refunded within them: the refund counts, the payment does not.
    inquiry(domain, "Old Refund", {
      amountCents: 6_400,
      paidAt: at(-40 * DAY),
      set: { status: "refunded", refunded_at: at(-5 * DAY) },
    });
    // Outside the 30 days altogether.
    inquiry(domain, "Old Answered", {
      amountCents: 128_000,
      paidAt: at(-40 * DAY),
      set: { answered_at: at(-39 * DAY) },
    });
    inquiry(domain, "Old Refunded", {
      amountCents: 256_000,
      paidAt: at(-50 * DAY),
      set: { status: "refunded", refunded_at: at(-45 * DAY) },
    });
    app
      .db()
      .prepare(
        "INSERT INTO inquiries (public_id, domain_id, domain_name, name, email, message, amount_cents, provider, created_at) VALUES ('desk-unpaid', ?, ?, 'Unpaid', 'u@example.test', 'm', 99900, 'test', ?)",
      )
      .run(domain.id, name, at(0));

    const panel = await http(app, "/admin", { cookie });
    expect(panel.status).toBe(200);
    expect(statText(panel.body, "Awaiting reply")).toBe("3 inquiries awaiting reply");
    expect(statText(panel.body, "Next reply due")).toMatch(/^Next reply due in 5 hours \( ?\d+\/\d+\/\d{4} ?\)$/);
    // Received in 30 days: 1,000 + 2,000 + 4,000 + 8,000 + 16,000 + 32,000 cents; refunded: 32,000 + 6,400.
    expect(statText(panel.body, "Fees, last 30 days")).toBe("$246");
    expect(statText(panel.body, "Fees detail")).toBe("$630 received, $384 refunded");
    // The spec's three cards stay, after these.
    const text = visibleText(panel.body);
    expect(text.indexOf("Awaiting reply")).toBeLessThan(text.indexOf("Total Domains"));
    for (const label of ["Total Domains", "Inquiry Fee", "Total Value"]) expect(text).toContain(label);

    // The nav carries the count on every admin page, and marks the page it is on.
    for (const [path, current] of [
      ["/admin", "Domains"],
      ["/admin/inquiries", "Inquiries"],
      ["/admin/portfolio", "Import / Export"],
    ] as const) {
      const page = await http(app, path, { cookie });
      const nav = /<nav aria-label="Admin"[\s\S]*?<\/nav>/.exec(page.body)![0];
      expect(visibleText(nav)).toContain("Inquiries 3 awaiting reply");
      const marked = [...nav.matchAll(/<a [^>]*aria-current="page"[^>]*>([\s\S]*?)<\/a>/g)].map((m) =>
        visibleText(m[1]!).trim(),
      );
      expect(marked.map((label) => label.replace(/ \d+ awaiting reply$/, ""))).toEqual([current]);
      expect(nav).toContain("Sign out everywhere");
      expect(nav).toMatch(/<details[\s\S]*Sign out everywhere[\s\S]*<\/details>/);
    }

    // Answering the soonest moves the deadline to the next one and lowers the count.
    const soonest = app.db().prepare("SELECT id FROM inquiries WHERE name = 'Due Soonest'").get() as { id: number };
    const answered = await http(app, "/admin/inquiries", {
      cookie,
      form: { intent: "answer", id: String(soonest.id) },
    });
    expect(answered.status).toBe(303);
    const after = await http(app, "/admin", { cookie });
    expect(statText(after.body, "Awaiting reply")).toBe("2 inquiries awaiting reply");
    expect(statText(after.body, "Next reply due")).toMatch(/^Next reply due in 2 days /);
  });
});

/** What the inbox lists for a query: its cards' headings, the count in the filter's option, the summary. */
async function inbox(query: string) {
  const page = await http(app, `/admin/inquiries?${query}`, { cookie });
  expect(page.status).toBe(200);
  const cards = [...page.body.matchAll(/<article[^>]*>[\s\S]*?<h2[^>]*>([\s\S]*?)<\/h2>/g)].map((m) =>
    visibleText(m[1]!).trim(),
  );
  const options = Object.fromEntries(
    [...page.body.matchAll(/<option value="(\w+)"[^>]*>([^<]*)<\/option>/g)].map((m) => [
      m[1]!,
      Number(/\((\d+)\)$/.exec(m[2]!)![1]),
    ]),
  );
  const summary = visibleText(/data-testid="inbox-summary"[^>]*>([\s\S]*?)<\/p>/.exec(page.body)![1]!).trim();
  return { body: page.body, text: visibleText(page.body), cards, options, summary };
}

describe("the inbox", () => {
  it("lists what each filter counts, and counts no refunded or credited inquiry as paid", async () => {
    const name = uniqueDomainName("counts");
    const domain = { id: insertDomain(app.db(), { name, priceCents: 100_000 }), name };
    const ask = { asking_price_cents: 100_000 };
    inquiry(domain, "Waiting One", {
      amountCents: 1_999,
      paidAt: at(-HOUR),
      set: { ...ask, reply_deadline_at: at(DAY) },
    });
    inquiry(domain, "Waiting Free", { amountCents: 0, paidAt: at(-HOUR) });
    inquiry(domain, "Replied", {
      amountCents: 1_999,
      paidAt: at(-DAY),
      set: { answered_at: at(-HOUR), reply_deadline_at: at(DAY) },
    });
    inquiry(domain, "Silent Past", { amountCents: 1_999, paidAt: at(-9 * DAY), set: { reply_deadline_at: at(-HOUR) } });
    inquiry(domain, "Took Credit", {
      amountCents: 1_999,
      paidAt: at(-9 * DAY),
      set: { reply_deadline_at: at(-DAY), credited_at: at(-HOUR) },
    });
    inquiry(domain, "Got Refund", {
      amountCents: 1_999,
      paidAt: at(-9 * DAY),
      set: { status: "refunded", refunded_at: at(-HOUR) },
    });
    inquiry(domain, "Refund After Reply", {
      amountCents: 1_999,
      paidAt: at(-3 * DAY),
      set: { status: "refunded", refunded_at: at(-HOUR), answered_at: at(-2 * DAY) },
    });
    const expected = {
      all: 7,
      awaiting: ["Waiting One", "Waiting Free"],
      answered: ["Replied"],
      closed: ["Silent Past"],
      credited: ["Took Credit"],
      refunded: ["Got Refund", "Refund After Reply"],
    };

    const all = await inbox(`domain=${name}`);
    expect(all.cards).toHaveLength(expected.all);
    expect(all.options).toEqual({ all: 7, awaiting: 2, answered: 1, closed: 1, credited: 1, refunded: 2 });
    expect(all.summary).toBe("7 inquiries: 4 paid, 1 credited, 2 refunded");
    for (const status of ["awaiting", "answered", "closed", "credited", "refunded"] as const) {
      const listed = await inbox(`domain=${name}&status=${status}`);
      const names = listed.cards.map((heading) => heading.replace(/ about .*$/, ""));
      expect(names.sort(), status).toEqual([...expected[status]].sort());
      expect(listed.options, status).toEqual(all.options);
      expect(listed.summary, status).toMatch(new RegExp(`^${expected[status].length} inquir(y|ies): `));
    }

    // The whole inbox, on every engine: each filter's count is what it lists, and they add up to All.
    const everything = await inbox("");
    expect(everything.cards).toHaveLength(everything.options.all!);
    let sum = 0;
    for (const status of ["awaiting", "answered", "closed", "credited", "refunded"] as const) {
      const listed = await inbox(`status=${status}`);
      expect(listed.cards, status).toHaveLength(everything.options[status]!);
      sum += listed.cards.length;
    }
    expect(sum).toBe(everything.options.all);
    // The nav's awaiting count is the awaiting filter's.
    expect(everything.text).toContain(`Inquiries ${everything.options.awaiting} awaiting reply`);
  });

  it("shows an offer against the asking price of the day, one reply form and a mailto", async () => {
    const name = uniqueDomainName("offer");
    const short = name.replace(/\.com$/, "");
    const domainId = insertDomain(app.db(), { name, priceCents: 2_450_000 });
    const { inquiryId } = await payInquiry(app, short, {
      name: "Offer Buyer",
      email: "offer@buyer.example",
      phone: "",
      offer: "$9,000",
      message: "Would you take $9,000?\nI can pay this week.",
    });
    // The price changes after the inquiry: the card keeps the one the buyer saw.
    app.db().prepare("UPDATE domains SET asking_price_cents = 3000000 WHERE id = ?").run(domainId);
    const listed = await inbox(`domain=${name}`);
    expect(listed.text).toContain("$9,000 — 37% of the $24,500 asking price");

    // One way to reply in the product: the card's own reply form, shown as it is; no separate Reply.
    expect(listed.body).not.toMatch(/>Reply<\/(a|button)>/);
    expect(listed.body).toMatch(new RegExp(`<textarea[^>]*id="reply-${inquiryId}"`));
    expect(listed.body.match(/>Send reply<\/button>/g)).toHaveLength(1);

    // And a mailto: to the buyer, about the name, quoting the message.
    const mailto = /href="(mailto:[^"]+)"[^>]*>Reply by email<\/a>/.exec(listed.body)![1]!.replace(/&amp;/g, "&");
    const url = new URL(mailto);
    expect(url.pathname).toBe("offer@buyer.example");
    expect(url.searchParams.get("subject")).toBe(`Re: Your inquiry about ${name}`);
    expect(url.searchParams.get("body")).toMatch(
      /\n\nOn [A-Z][a-z]{2} \d{1,2}, \d{4}, Offer Buyer wrote:\n> Would you take \$9,000\?\n> I can pay this week\.\n$/,
    );
  });
});
