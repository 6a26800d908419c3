import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeDataDir, startAppServer, type AppServer } from "../support/app-server";
import { adminCookie } from "../support/admin";
import { insertDomain, uniqueDomainName } from "../support/data";
import { BUYER, postForm, postJson, request, type Reply } from "../support/http";
import { untilWaitingForLock } from "../support/sqlite-lock";

// Another process holds SQLite's write lock (a backup tool, a migration, a second server, a long
// script): a separate better-sqlite3 connection in this test process runs BEGIN IMMEDIATE on the
// server's file. Within busy_timeout requests wait and then succeed; past it the buyer and the
// admin get a clear 503 with Retry-After, never a 500, and nothing is half-stored.
const ADMIN = { email: "admin@example.test", password: "busy-admin-password" };
const adminEnv = { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password };
const BUSY_TEXT = "The site is busy right now. Nothing was saved; please try again in a moment.";
let patient: AppServer; // default busy_timeout (5 s)
let impatient: AppServer; // busy_timeout 300 ms, to reach "held longer than busy_timeout" quickly

beforeAll(async () => {
  [patient, impatient] = await Promise.all([
    startAppServer({ env: adminEnv }),
    startAppServer({ env: { ...adminEnv, SQLITE_BUSY_TIMEOUT_MS: "300" } }),
  ]);
});
afterAll(async () => {
  for (const server of [patient, impatient]) {
    if (!server) continue;
    await server.stop();
    removeDataDir(server);
  }
});

function newDomain(server: AppServer) {
  const name = uniqueDomainName("busy");
  const id = insertDomain(server.db(), { name, priceCents: 900_000 });
  return { id, name, short: name.replace(/\.com$/, "") };
}

/** A second writer on the server's database file, holding the write lock until release(). */
function holdWriteLock(server: AppServer) {
  const holder = new Database(server.dbPath);
  holder.pragma("busy_timeout = 10000");
  holder.exec("BEGIN IMMEDIATE");
  // It really writes: its row must be there after COMMIT, next to everything the server stored.
  const name = uniqueDomainName("holder");
  holder
    .prepare(
      "INSERT INTO domains (domain_name, asking_price_cents, tracking_id, owner_email, created_at, updated_at) VALUES (?, 100, 't', '', ?, ?)",
    )
    .run(name, new Date().toISOString(), new Date().toISOString());
  return {
    holder,
    name,
    release() {
      holder.exec("COMMIT");
      holder.close();
    },
  };
}

function adminPost(server: AppServer, cookie: string, fields: Record<string, string>): Promise<Reply> {
  return request(server, "/admin", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.origin, Cookie: cookie },
    body: new URLSearchParams(fields).toString(),
  });
}

const feeText = (server: AppServer) =>
  (server.db().prepare("SELECT value FROM settings WHERE key = 'inquiry_fee'").get() as { value: string } | undefined)
    ?.value;
const priceOf = (server: AppServer, id: number) =>
  (server.db().prepare("SELECT asking_price_cents AS c FROM domains WHERE id = ?").get(id) as { c: number }).c;
const inquiriesNamed = (server: AppServer, name: string) =>
  server.db().prepare("SELECT * FROM inquiries WHERE name = ?").all(name) as any[];

describe("a second writer holds the lock until the server waits for it (less than busy_timeout)", () => {
  it("buyers' inquiries and the admin's fee and price edits wait, then all succeed; every row is there", async () => {
    const domains = [newDomain(patient), newDomain(patient), newDomain(patient)];
    const cookie = await adminCookie(patient.url, ADMIN);
    const lock = holdWriteLock(patient);
    const startedAt = Date.now();
    const timed = async <T>(work: Promise<T>) => {
      const result = await work;
      return { result, ms: Date.now() - startedAt };
    };
    const jsBuyers = [0, 1, 2, 3, 4, 5].map((i) =>
      timed(
        postJson(patient, "/api/create-payment-intent", {
          domain_name: domains[i % 3]!.short,
          customer_info: { ...BUYER, name: `Busy JS ${i}` },
        }),
      ),
    );
    const formBuyers = [0, 1, 2, 3].map((i) =>
      timed(
        postForm(patient, `/payment/${domains[i % 3]!.short}`, { intent: "inquiry", ...BUYER, name: `Busy Form ${i}` }),
      ),
    );
    const fee = timed(adminPost(patient, cookie, { intent: "fee", fee: "24.99" }));
    const price = timed(adminPost(patient, cookie, { intent: "price", id: String(domains[0]!.id), price: "15000" }));
    // Released once the server waits in SQLite's busy handler (the requests behind it queue meanwhile).
    await untilWaitingForLock(patient);
    const heldMs = Date.now() - startedAt;
    lock.release();

    const js = await Promise.all(jsBuyers);
    const forms = await Promise.all(formBuyers);
    const admin = await Promise.all([fee, price]);
    for (const { result } of js) expect(result.status, JSON.stringify(result.json)).toBe(200);
    for (const { result } of forms) {
      expect(result.status).toBe(303);
      expect(result.headers.get("location")).toMatch(/^\/test-checkout\/tcs_/);
    }
    expect(admin.map(({ result }) => [result.status, result.headers.get("location")])).toEqual([
      [303, "/admin?notice=fee-updated"],
      [303, "/admin?notice=price-updated"],
    ]);

    // Every row is there, once; each inquiry's payment is for the fee in force when the inquiry was stored.
    const names = [...[0, 1, 2, 3, 4, 5].map((i) => `Busy JS ${i}`), ...[0, 1, 2, 3].map((i) => `Busy Form ${i}`)];
    let rowsLost = 0;
    for (const name of names) {
      const rows = inquiriesNamed(patient, name);
      if (rows.length === 0) rowsLost += 1;
      expect(rows, name).toHaveLength(1);
      expect([1999, 2499]).toContain(rows[0].amount_cents);
      const payments = patient
        .db()
        .prepare("SELECT amount_cents FROM test_payments WHERE inquiry_public_id = ?")
        .all(rows[0].public_id) as { amount_cents: number }[];
      expect(payments.map((p) => p.amount_cents)).toEqual([rows[0].amount_cents]);
    }
    expect(feeText(patient)).toBe("24.99");
    expect(priceOf(patient, domains[0]!.id)).toBe(1_500_000);
    expect(patient.db().prepare("SELECT count(*) AS n FROM domains WHERE domain_name = ?").get(lock.name)).toEqual({
      n: 1,
    });

    // The buyers can finish paying: one paid inquiry per completed payment.
    for (const [i, { result }] of js.entries()) {
      const card = await postJson(patient, "/api/test-payments/confirm", {
        client_secret: result.json.client_secret,
        card_number: "4242424242424242",
        expiry: "12/40",
        cvc: "123",
      });
      expect(card.json.status).toBe("succeeded");
      const confirmed = await postJson(patient, "/api/confirm-payment", {
        payment_intent_id: result.json.payment_intent_id,
        domain_name: domains[i % 3]!.short,
      });
      expect(confirmed.json).toMatchObject({ ok: true });
    }
    for (const domain of domains) {
      const paid = (
        patient
          .db()
          .prepare("SELECT count(*) AS n FROM inquiries WHERE domain_id = ? AND status = 'paid'")
          .get(domain.id) as { n: number }
      ).n;
      expect(paid).toBe(2);
      expect(
        (patient.db().prepare("SELECT inquiry_count AS n FROM domains WHERE id = ?").get(domain.id) as { n: number }).n,
      ).toBe(paid);
    }
    const waited = Math.max(...[...js, ...forms, ...admin].map(({ ms }) => ms));
    console.log(
      `faults (db busy within busy_timeout): lock held ${heldMs} ms, ${names.length + 2} writes waited up to ${waited} ms, 0 failed, rows lost ${rowsLost}`,
    );
  });
});

describe("a second writer holds the lock longer than busy_timeout", () => {
  it("answers 503 with Retry-After and a clear message, stores nothing, and the retry after release succeeds", async () => {
    const domain = newDomain(impatient);
    const cookie = await adminCookie(impatient.url, ADMIN);
    // A buyer who paid on the checkout page and comes back while the database is locked.
    const paying = await postForm(impatient, `/payment/${domain.short}`, {
      intent: "inquiry",
      ...BUYER,
      name: "Busy Returning",
    });
    const checkoutPath = paying.headers.get("location")!;
    const paid = await postForm(impatient, checkoutPath, {
      card_number: "4242 4242 4242 4242",
      expiry: "12/40",
      cvc: "123",
    });
    expect(paid.status).toBe(303);
    const returnUrl = new URL(paid.headers.get("location")!, impatient.url);
    const feeBefore = feeText(impatient) ?? "19.99";

    const lock = holdWriteLock(impatient);
    const replies: { what: string; status: number }[] = [];
    try {
      const js = await postJson(impatient, "/api/create-payment-intent", {
        domain_name: domain.short,
        customer_info: { ...BUYER, name: "Busy Late JS" },
      });
      replies.push({ what: "JSON inquiry", status: js.status });
      expect(js).toMatchObject({ status: 503, json: { error: BUSY_TEXT } });
      expect(js.headers.get("retry-after")).toBe("5");

      const form = await postForm(impatient, `/payment/${domain.short}`, {
        intent: "inquiry",
        ...BUYER,
        name: "Busy Late Form",
      });
      replies.push({ what: "form inquiry", status: form.status });
      expect(form.status).toBe(503);
      expect(form.headers.get("retry-after")).toBe("5");
      expect(form.body).toContain(BUSY_TEXT);
      expect(form.body).toContain("Busy Late Form"); // the buyer's typing is kept

      const back = await request(impatient, returnUrl.pathname + returnUrl.search);
      replies.push({ what: "return page", status: back.status });
      expect(back.status).toBe(200);
      expect(back.body).toContain(BUSY_TEXT);
      expect(back.body).not.toContain("Payment Successful!");
      // The payment went through: the page offers no second one while it cannot record it.
      expect(back.body).not.toContain("Pay $");

      const fee = await adminPost(impatient, cookie, { intent: "fee", fee: "31.00" });
      replies.push({ what: "admin fee", status: fee.status });
      expect(fee.status).toBe(503);
      expect(fee.headers.get("retry-after")).toBe("5");
      expect(fee.body).toContain("Error updating inquiry fee. Please try again.");
      const price = await adminPost(impatient, cookie, { intent: "price", id: String(domain.id), price: "777" });
      replies.push({ what: "admin price", status: price.status });
      expect(price.status).toBe(503);
      expect(price.headers.get("retry-after")).toBe("5");

      // An error no route expected (the sign-in's session insert): the error page, with 503 and Retry-After.
      const login = await postForm(impatient, "/admin", { intent: "login", ...ADMIN });
      replies.push({ what: "admin sign-in", status: login.status });
      expect(login.status).toBe(503);
      expect(login.headers.get("retry-after")).toBe("5");
      expect(login.body).toContain("Please try again in a moment.");

      // Reading is not blocked (WAL): the public pages still answer.
      const page = await request(impatient, `/domain/${domain.short}`);
      replies.push({ what: "domain page", status: page.status });
      expect(page.status).toBe(200);

      // Nothing half-stored, seen from the lock holder's own connection.
      expect(
        lock.holder
          .prepare("SELECT count(*) AS n FROM inquiries WHERE name IN ('Busy Late JS', 'Busy Late Form')")
          .get(),
      ).toEqual({ n: 0 });
    } finally {
      lock.release();
    }
    expect(inquiriesNamed(impatient, "Busy Late JS")).toHaveLength(0);
    expect(inquiriesNamed(impatient, "Busy Late Form")).toHaveLength(0);
    expect(feeText(impatient) ?? "19.99").toBe(feeBefore);
    expect(priceOf(impatient, domain.id)).toBe(900_000);
    expect(inquiriesNamed(impatient, "Busy Returning")[0].status).toBe("pending");

    // Retry-After honoured: the same requests now succeed, once.
    expect(
      (
        await postJson(impatient, "/api/create-payment-intent", {
          domain_name: domain.short,
          customer_info: { ...BUYER, name: "Busy Late JS" },
        })
      ).status,
    ).toBe(200);
    expect(
      (await postForm(impatient, `/payment/${domain.short}`, { intent: "inquiry", ...BUYER, name: "Busy Late Form" }))
        .status,
    ).toBe(303);
    expect((await request(impatient, returnUrl.pathname + returnUrl.search)).body).toContain("Payment Successful!");
    expect((await adminPost(impatient, cookie, { intent: "fee", fee: "31.00" })).status).toBe(303);
    expect((await adminPost(impatient, cookie, { intent: "price", id: String(domain.id), price: "777" })).status).toBe(
      303,
    );
    expect(inquiriesNamed(impatient, "Busy Late JS")).toHaveLength(1);
    expect(inquiriesNamed(impatient, "Busy Late Form")).toHaveLength(1);
    expect(feeText(impatient)).toBe("31.00");
    expect(priceOf(impatient, domain.id)).toBe(77_700);
    expect(
      (impatient.db().prepare("SELECT inquiry_count AS n FROM domains WHERE id = ?").get(domain.id) as { n: number }).n,
    ).toBe(1);
    expect(impatient.output()).toMatch(/"method":"POST","path":"\/admin","msg":"database busy"/);
    const refused = replies.filter((r) => r.status === 503).length;
    console.log(
      `faults (db busy past busy_timeout): ${replies.length} requests, ${refused} answered 503 + Retry-After, ${replies.filter((r) => r.status >= 500 && r.status !== 503).length} other 5xx, rows half-stored 0`,
    );
  });
});
