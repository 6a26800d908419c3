import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeDataDir, startAppServer, type AppServer } from "../support/app-server";
import { postForm, request, setFeeCents, waitFor, type Reply } from "../support/http";
import { mailAbout } from "../support/mail-files";
import { linkIn, newDomain, payInquiry } from "../support/refund-promise";
import { visibleText } from "../support/visible-text";
import { closeWriteGate } from "../support/write-gate";

// The sale's races across processes (issue 37, "How it must behave"): two production servers on one
// database (the engine of the project: a SQLite file in WAL mode, which takes a few processes on one
// machine, or PostgreSQL), driven over HTTP with the product's own forms and the test provider's checkout.
// Two accepts of one offer posted to both at once make one deal; a buy now and an accepted offer's deal
// paid on both at once sell the name once, and the losing payment is refunded; so does a buy now paid on
// one while the owner accepts an offer on the other. Where timing decides, a write gate
// (tests/support/write-gate.ts) holds both requests at their transactions' door and lets them in
// together, so the guards inside the transactions decide, every run. The same rules in one process:
// tests/in-process/offers.test.ts and buy-now.test.ts.
const ENV = {
  // The reconciler stays out of the way: the returns from checkout are what race.
  RECONCILE_INTERVAL_MS: "3600000",
  MAX_PAYMENTS_PER_ADDRESS_PER_HOUR: "1000",
};
const GOOD_CARD = { card_number: "4242424242424242", expiry: "12/40", cvc: "123" };
const LOST_TEXT = "This name was sold to another buyer just before your payment.";

let a: AppServer;
let b: AppServer;

beforeAll(async () => {
  a = await startAppServer({ env: ENV });
  b = await startAppServer({ dataDir: a.dataDir, database: a.database, env: ENV });
  setFeeCents(a.db(), 1999);
});
afterAll(async () => {
  await b?.stop();
  await a?.stop();
  if (a) removeDataDir(a);
});

/** A path from a Location header (checkout pages and returns may name PUBLIC_URL's host). */
function locationOf(reply: Reply): string {
  expect(reply.status, reply.body.slice(0, 500)).toBe(303);
  const url = new URL(reply.headers.get("location")!, a.url);
  return url.pathname + url.search;
}

/** A name (with a buy now price if given) and a paid inquiry about it, with both sides' signed links. */
async function inquiryAbout(prefix: string, buyNowCents?: number) {
  const domain = newDomain(a, { prefix, ownerEmail: `${prefix}-owner@example.test` });
  if (buyNowCents) a.db().prepare("UPDATE domains SET buy_now_cents = ? WHERE id = ?").run(buyNowCents, domain.id);
  const inquiry = await payInquiry(a, domain, { email: `${prefix}-${domain.id}@buyer.example` });
  return {
    domain,
    inquiry,
    buyerLink: linkIn(await mailAbout(a, "buyer_receipt", inquiry.public_id), "/inquiry/"),
    ownerLink: linkIn(await mailAbout(a, "owner_inquiry", inquiry.public_id), "/owner-reply/"),
  };
}

/** The test checkout paid with a good card, then the return to the buyer's deal page, on `server`. */
async function payCheckout(server: AppServer, checkout: string): Promise<string> {
  const paid = await postForm(server, checkout, GOOD_CARD);
  return locationOf(await request(server, locationOf(paid)));
}

/** No email waits to be sent: on SQLite, the outbox's write would wait at a write gate too. */
const untilOutboxIdle = () =>
  waitFor(
    () => count(a, "SELECT count(*) AS n FROM outbox WHERE sent_at IS NULL AND dead_at IS NULL") === 0,
    10_000,
    "the outbox to be idle",
  );
const count = (server: AppServer, query: string, ...values: unknown[]) =>
  Number(
    (
      server
        .db()
        .prepare(query)
        .get(...values) as { n: number | string }
    ).n,
  );
const dealsOf = (domainId: number) =>
  a.db().prepare("SELECT origin, status, payment_id FROM deals WHERE domain_id = ? ORDER BY id").all(domainId) as {
    origin: string;
    status: string;
    payment_id: string | null;
  }[];

describe("two processes on one database", () => {
  it("two accepts of one offer posted to both at once make one deal; the other is refused", async () => {
    const { domain, inquiry, buyerLink, ownerLink } = await inquiryAbout("accept2");
    expect(locationOf(await postForm(a, buyerLink, { intent: "send-offer", offerAmount: "5000" }))).toContain(
      "/inquiry/",
    );
    for (const server of [a, b]) expect((await request(server, ownerLink)).body).toContain("Accept offer");

    // Both posts have read the offer open and wait to write the answer (the inquiry's row); then both go.
    await untilOutboxIdle();
    const gate = await closeWriteGate(a, "inquiries", inquiry.id);
    const posted = Promise.all([a, b].map((server) => postForm(server, ownerLink, { intent: "accept-offer" })));
    await gate.untilWaiting([a, b]);
    await gate.open();
    const answers = await posted;
    expect(answers.map((answer) => answer.status).sort()).toEqual([303, 409]);
    const refused = answers.find((answer) => answer.status === 409)!;
    expect(visibleText(refused.body)).toMatch(/This offer is no longer open|This name is already under offer/);

    expect(dealsOf(domain.id)).toEqual([{ origin: "offer", status: "agreed", payment_id: null }]);
    const accepted = "Accepted the offer of $5,000: a deal is agreed.";
    expect(
      count(a, "SELECT count(*) AS n FROM inquiry_messages WHERE inquiry_id = ? AND body = ?", inquiry.id, accepted),
    ).toBe(1);
    expect(
      count(a, "SELECT count(*) AS n FROM outbox WHERE kind = 'deal_agreed' AND to_address = ?", inquiry.email),
    ).toBe(1);
    // Either process shows the buyer one agreed deal in the conversation.
    for (const server of [a, b]) {
      const page = visibleText((await request(server, buyerLink)).body);
      expect(page.split(accepted)).toHaveLength(2);
      expect(page).toContain("Deal agreed: $5,000");
    }
  });

  it("a buy now and an accepted offer's deal paid on both at once: the name sells once, the loser is refunded", async () => {
    const { domain, inquiry, buyerLink, ownerLink } = await inquiryAbout("sellonce", 900_000);
    // A buy now started on A before the offer is accepted (starting one holds nothing), paid later.
    const buyNowCheckout = locationOf(
      await postForm(a, `/buy/${domain.short}`, { name: "Other Buyer", email: `other-${domain.id}@buyer.example` }),
    );
    // The buyer's offer, accepted by the owner on B: a deal agreed at $5,000 less the fee.
    locationOf(await postForm(a, buyerLink, { intent: "send-offer", offerAmount: "5000" }));
    locationOf(await postForm(b, ownerLink, { intent: "accept-offer" }));
    const dealForm = /action="([^"]*\/deal\/[^"]+)"/
      .exec((await request(b, buyerLink)).body)![1]!
      .replace(/&amp;/g, "&");
    const dealCheckout = locationOf(await postForm(b, dealForm, { intent: "pay" }));
    expect((await request(b, dealCheckout)).body).toContain("$4,980.01");

    // Both buyers pay and come back at the same moment, one on each process.
    const [buyNowPage, dealPage] = await Promise.all([payCheckout(a, buyNowCheckout), payCheckout(b, dealCheckout)]);

    // The accepted offer held the name (an agreed deal is live), so the buy now's payment lost.
    const deals = dealsOf(domain.id);
    expect(deals.map(({ origin, status }) => ({ origin, status }))).toEqual([
      { origin: "buy_now", status: "lost" },
      { origin: "offer", status: "paid" },
    ]);
    expect(count(a, "SELECT count(*) AS n FROM domains WHERE id = ? AND sale_state = 'sold'", domain.id)).toBe(1);
    expect(
      count(
        a,
        "SELECT count(*) AS n FROM outbox WHERE kind = 'deal_paid_owner' AND subject LIKE ?",
        `${domain.name} %`,
      ),
    ).toBe(1);
    // The losing payment went back: a stray payment refunded, and the provider's payment refunded.
    const lostPayment = deals[0]!.payment_id!;
    await waitFor(
      () =>
        count(a, "SELECT count(*) AS n FROM stray_payments WHERE payment_id = ? AND state = 'refunded'", lostPayment),
      10_000,
      "the losing payment refunded",
    );
    expect(count(a, "SELECT count(*) AS n FROM test_payments WHERE id = ? AND status = 'refunded'", lostPayment)).toBe(
      1,
    );
    expect(
      count(a, "SELECT count(*) AS n FROM test_payments WHERE id = ? AND status = 'refunded'", deals[1]!.payment_id),
    ).toBe(0);

    // Each buyer's page says how it ended; the loser is told by email too.
    const loser = (await request(a, buyNowPage)).body;
    expect(loser).toContain(LOST_TEXT);
    expect(loser).toContain("Sold to another buyer: refunded");
    expect((await request(b, dealPage)).body).toContain("Paid: waiting for the transfer details");
    await mailAbout(a, "deal_lost", domain.name);
    expect((await request(b, buyerLink)).body).not.toContain(LOST_TEXT);
    expect(inquiry.status).toBe("paid");
    for (const server of [a, b]) {
      await waitFor(
        async () => (await request(server, `/domain/${domain.short}`)).body.includes(`${domain.name} has been sold`),
        5_000,
        "the domain page to say Sold",
      );
    }
  });

  it("a buy now paid on one process while the owner accepts an offer on the other: one wins, the other is refused", async () => {
    const { domain, buyerLink, ownerLink } = await inquiryAbout("acceptpay", 900_000);
    const buyNowCheckout = locationOf(
      await postForm(a, `/buy/${domain.short}`, { name: "Other Buyer", email: `other-${domain.id}@buyer.example` }),
    );
    locationOf(await postForm(a, buyerLink, { intent: "send-offer", offerAmount: "5000" }));
    // The card is taken (the provider holds the money); the return from checkout records it.
    const paymentReturn = locationOf(await postForm(a, buyNowCheckout, GOOD_CARD));

    // The acceptance (on B) comes first to the name's row, then the payment (on A), both held there.
    await untilOutboxIdle();
    const gate = await closeWriteGate(a, "domains", domain.id);
    const accepting = postForm(b, ownerLink, { intent: "accept-offer" });
    await gate.untilWaiting([b], 1);
    const returning = request(a, paymentReturn);
    await gate.untilWaiting([a, b], 2);
    await gate.open();
    const [accepted, returned] = await Promise.all([accepting, returning]);

    expect(accepted.status, visibleText(accepted.body).slice(0, 300)).toBeLessThan(500);
    expect(returned.status, visibleText(returned.body).slice(0, 300)).toBe(303);
    const buyNowPage = (await request(a, locationOf(returned))).body;
    const deals = dealsOf(domain.id);
    const live = deals.filter((deal) => ["agreed", "paid"].includes(deal.status));
    expect(live).toHaveLength(1);
    if (accepted.status === 303) {
      // The offer won: the deal is agreed, the buy now's payment lost and went back.
      expect(deals.map(({ origin, status }) => ({ origin, status }))).toEqual([
        { origin: "buy_now", status: "lost" },
        { origin: "offer", status: "agreed" },
      ]);
      expect(visibleText(buyNowPage)).toContain(LOST_TEXT);
      await waitFor(
        () =>
          count(
            a,
            "SELECT count(*) AS n FROM stray_payments WHERE payment_id = ? AND state = 'refunded'",
            deals[0]!.payment_id,
          ),
        10_000,
        "the losing payment refunded",
      );
    } else {
      // The buy now won: the name is sold; the acceptance is refused with a message, no money moved.
      expect(accepted.status).toBe(409);
      expect(visibleText(accepted.body)).toMatch(/This name has been sold|This name is already under offer/);
      expect(deals.map(({ origin, status }) => ({ origin, status }))).toEqual([{ origin: "buy_now", status: "paid" }]);
      expect(visibleText(buyNowPage)).toContain("Paid: waiting for the transfer details");
    }
  });
});
