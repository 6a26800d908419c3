// `npm run test:load`: the production server under LOAD_BUYERS (50) concurrent buyers for LOAD_SECONDS
// (60) while a signed-in admin edits prices and the fee. Buyers use the offline test provider, half
// through the JavaScript path (JSON routes) and half without JavaScript (forms, hosted checkout, 303s).
// Afterwards the database must agree with what everyone saw: every domain's inquiry_count equals its
// paid inquiries, every payment a buyer completed has its paid row, each charge equals the fee in
// force when its inquiry was created, each edited price is the admin's last value; no request failed.
// Exits 1 on any failure. Needs a build (npm run build; `npm run test:load` builds when it is stale).
//
// Every inquiry comes from its own client address (X-Forwarded-For with TRUST_PROXY=true: the load
// generator is the one proxy in front), as real buyers do: the per-address limits (60 inquiries, 30 card
// attempts per 10 minutes) are not under test.
import { pathToFileURL } from "node:url";
import { removeDataDir, startAppServer } from "../tests/support/app-server";
import { openSqlReader, type SqlReader } from "../tests/support/sql-reader";

export const LOAD_ADMIN = { email: "load-admin@example.test", password: "load-admin-password" };
/** The server environment the load test needs (see the header comment). */
export const LOAD_SERVER_ENV: Record<string, string> = {
  TRUST_PROXY: "true",
  ADMIN_EMAIL: LOAD_ADMIN.email,
  ADMIN_PASSWORD: LOAD_ADMIN.password,
  LOG_REQUESTS: "false",
  SEED_DEMO: "true",
};
/** Fees the admin switches between: all >= $0.50, so every inquiry takes the paid path. */
const FEES_CENTS = [1999, 2499, 500, 1250, 3000, 75];
const CARD = { card_number: "4242424242424242", expiry: "12/40", cvc: "123" };

export interface LoadOptions {
  url: string;
  /** The server's DATABASE_URL (file:... or postgres://...), read after the run to check every row. */
  database: string;
  seconds: number;
  buyers: number;
  /** Pause between two admin edits. */
  adminPauseMs?: number;
  /** Where the admin works, when not `url` (one process of a cluster), and the Origin its browser sends. */
  adminUrl?: string;
  adminOrigin?: string;
  /** Called at the run's middle (e.g. to kill a process of a cluster); the run goes on meanwhile. */
  atMiddle?: () => Promise<void>;
}

export interface LoadResult {
  durationMs: number;
  buyers: number;
  inquiriesCompleted: number;
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  failures: number;
  failureSamples: string[];
  adminEdits: number;
  mismatches: number;
  mismatchSamples: string[];
  rowsLost: number;
  /** The fee edits, with when each was sent and when the server answered it (epoch ms). */
  feeEdits: FeeEdit[];
  ok: boolean;
}

interface Completed {
  publicId: string;
  /** The amount the buyer was shown (JSON `amount`, or the checkout page's price). */
  seenCents: number;
  /** When the buyer sent the request that created the inquiry (its fee is read after this). */
  askedAt: number;
}

export interface FeeEdit {
  cents: number;
  sentAt: number;
  doneAt: number;
}

class Failure extends Error {}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const base = options.url;
  const origin = new URL(base).origin;
  const latencies: number[] = [];
  const failureSamples: string[] = [];
  let failures = 0;
  const completed: Completed[] = [];
  const feeEdits: FeeEdit[] = [];
  const lastPrices = new Map<number, number>();
  let adminEdits = 0;

  const db = await openSqlReader(options.database);
  const domains = await db.all<{ id: number; domain_name: string }>(
    "SELECT id, domain_name FROM domains WHERE deleted_at IS NULL ORDER BY id",
  );
  if (domains.length === 0) throw new Error("no domains to buy");
  const baseline = await snapshotCounts(db);
  const inquiriesBefore = (await db.get<{ id: number }>("SELECT coalesce(max(id), 0) AS id FROM inquiries"))!.id;
  const initialFee = await currentFee(db);

  async function call(
    path: string,
    init: RequestInit & { expect: number[]; base?: string },
  ): Promise<Response & { text: string }> {
    const started = performance.now();
    let response: Response;
    let text: string;
    try {
      response = await fetch(new URL(path, init.base ?? base), { redirect: "manual", ...init });
      text = await response.text();
    } catch (error) {
      throw new Failure(`${init.method ?? "GET"} ${path}: network error ${(error as Error).message}`);
    } finally {
      latencies.push(performance.now() - started);
    }
    if (!init.expect.includes(response.status)) {
      throw new Failure(
        `${init.method ?? "GET"} ${path}: ${response.status} ${text.slice(0, 160).replace(/\s+/g, " ")}`,
      );
    }
    return Object.assign(response, { text });
  }
  const json = (address: string, body: unknown) => ({
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: origin, "X-Forwarded-For": address },
    body: JSON.stringify(body),
  });
  const form = (address: string, fields: Record<string, string>, cookie?: string, formOrigin = origin) => ({
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: formOrigin,
      ...(address ? { "X-Forwarded-For": address } : {}),
      ...(cookie ? { Cookie: cookie } : {}),
    },
    body: new URLSearchParams(fields).toString(),
  });
  const pathOf = (location: string) => {
    const url = new URL(location, base);
    return url.pathname + url.search;
  };

  async function buyWithJavaScript(buyer: number, n: number, address: string): Promise<void> {
    const domain = domains[(buyer * 7 + n) % domains.length]!;
    const short = domain.domain_name.replace(/\.com$/, "");
    const headers = { "X-Forwarded-For": address };
    await call(`/domain/${encodeURIComponent(short)}`, { headers, expect: [200] });
    await call(`/payment/${encodeURIComponent(short)}`, { headers, expect: [200] });
    const info = {
      name: `Load Buyer ${buyer}-${n}`,
      email: `buyer${buyer}.${n}@load.example`,
      phone: "+1 555 0100",
      offer: "$9,000",
      message: "Load test inquiry.",
    };
    const askedAt = Date.now();
    const created = JSON.parse(
      (
        await call("/api/create-payment-intent", {
          ...json(address, { domain_name: short, customer_info: info }),
          expect: [200],
        })
      ).text,
    );
    const confirmed = JSON.parse(
      (
        await call("/api/test-payments/confirm", {
          ...json(address, { client_secret: created.client_secret, ...CARD }),
          expect: [200],
        })
      ).text,
    );
    if (confirmed.status !== "succeeded") throw new Failure(`card not accepted: ${JSON.stringify(confirmed)}`);
    const done = JSON.parse(
      (
        await call("/api/confirm-payment", {
          ...json(address, { payment_intent_id: created.payment_intent_id, domain_name: short }),
          expect: [200],
        })
      ).text,
    );
    if (!done.ok) throw new Failure(`confirm refused: ${JSON.stringify(done)}`);
    completed.push({ publicId: created.inquiry_id, seenCents: created.amount, askedAt });
    const page = await call(created.redirect, { headers, expect: [200] });
    if (!page.text.includes("Payment Successful!")) throw new Failure(`no success page for ${created.inquiry_id}`);
  }

  async function buyWithoutJavaScript(buyer: number, n: number, address: string): Promise<void> {
    const domain = domains[(buyer * 11 + n) % domains.length]!;
    const short = domain.domain_name.replace(/\.com$/, "");
    const headers = { "X-Forwarded-For": address };
    await call(`/payment/${encodeURIComponent(short)}`, { headers, expect: [200] });
    const fields = {
      intent: "inquiry",
      name: `Load Form ${buyer}-${n}`,
      email: `form${buyer}.${n}@load.example`,
      phone: "",
      offer: "",
      message: "Load test inquiry (no JavaScript).",
    };
    const askedAt = Date.now();
    const started = await call(`/payment/${encodeURIComponent(short)}`, { ...form(address, fields), expect: [303] });
    const checkoutPath = pathOf(started.headers.get("location")!);
    const checkout = await call(checkoutPath, { headers, expect: [200] });
    const price = /Inquiry for <strong[^>]*>[^<]*<\/strong>: <strong[^>]*>\$([\d,]+(?:\.\d\d)?)<\/strong>/.exec(
      // React writes adjacent text nodes with a <!-- --> between them (": " is two in the JSX).
      checkout.text.replace(/<!-- -->/g, ""),
    );
    if (!price) throw new Failure(`no price on ${checkoutPath}`);
    const paid = await call(checkoutPath, { ...form(address, CARD), expect: [303] });
    const back = pathOf(paid.headers.get("location")!);
    const publicId = new URL(back, base).searchParams.get("inquiry")!;
    completed.push({ publicId, seenCents: Math.round(Number(price[1]!.replace(/,/g, "")) * 100), askedAt });
    const page = await call(back, { headers, expect: [200] });
    if (!page.text.includes("Payment Successful!")) throw new Failure(`no success page for ${publicId}`);
  }

  // The admin signs in before the load starts: its scrypt run, queued behind the buyers' requests on a
  // loaded machine, could otherwise take the whole run, and no edit would land while they buy.
  const adminBase = options.adminUrl ?? base;
  const adminOrigin = options.adminOrigin ?? new URL(adminBase).origin;
  const adminForm = (fields: Record<string, string>, cookie?: string) => ({
    ...form("", fields, cookie, adminOrigin),
    base: adminBase,
  });
  const login = await call("/admin", { ...adminForm({ intent: "login", ...LOAD_ADMIN }), expect: [303] });
  const cookie = login.headers.get("set-cookie")!.split(";")[0]!;

  const deadline = Date.now() + options.seconds * 1000;
  const startedAt = performance.now();

  async function buyerLoop(buyer: number): Promise<void> {
    for (let n = 0; Date.now() < deadline; n++) {
      // A new client address per inquiry (10.x.y.z): many buyers, not one very busy one.
      const address = `10.${buyer % 250}.${(n >> 8) % 250}.${(n % 250) + 1}`;
      try {
        await ((buyer + n) % 2 === 0 ? buyWithJavaScript(buyer, n, address) : buyWithoutJavaScript(buyer, n, address));
      } catch (error) {
        if (!(error instanceof Failure)) throw error;
        failures += 1;
        if (failureSamples.length < 10) failureSamples.push(error.message);
      }
    }
  }

  async function adminLoop(): Promise<void> {
    for (let n = 0; Date.now() < deadline; n++) {
      try {
        if (n % 2 === 0) {
          const cents = FEES_CENTS[(n / 2) % FEES_CENTS.length]!;
          const edit: FeeEdit = { cents, sentAt: Date.now(), doneAt: 0 };
          feeEdits.push(edit);
          const reply = await call("/admin", {
            ...adminForm({ intent: "fee", fee: (cents / 100).toFixed(2) }, cookie),
            expect: [303],
          });
          edit.doneAt = Date.now();
          if (reply.headers.get("location") !== "/admin?notice=fee-updated")
            throw new Failure(`fee edit: ${reply.headers.get("location")}`);
        } else {
          const domain = domains[(n * 5) % domains.length]!;
          const cents = 100_000 + ((n * 7919) % 900) * 1000;
          await call("/admin", {
            ...adminForm({ intent: "price", id: String(domain.id), price: (cents / 100).toFixed(2) }, cookie),
            expect: [303],
          });
          lastPrices.set(domain.id, cents);
        }
        adminEdits += 1;
        await call("/admin", { headers: { Cookie: cookie }, base: adminBase, expect: [200] });
      } catch (error) {
        if (!(error instanceof Failure)) throw error;
        failures += 1;
        if (failureSamples.length < 10) failureSamples.push(`admin: ${error.message}`);
      }
      await new Promise((resolve) => setTimeout(resolve, options.adminPauseMs ?? 250));
    }
  }

  const middle = options.atMiddle
    ? new Promise((resolve) => setTimeout(resolve, (options.seconds * 1000) / 2)).then(options.atMiddle)
    : Promise.resolve();
  await Promise.all([middle, adminLoop(), ...Array.from({ length: options.buyers }, (_, buyer) => buyerLoop(buyer))]);
  const durationMs = performance.now() - startedAt;

  // The database against what everyone saw.
  const mismatchSamples: string[] = [];
  let mismatches = 0;
  const mismatch = (text: string) => {
    mismatches += 1;
    if (mismatchSamples.length < 10) mismatchSamples.push(text);
  };
  const after = await snapshotCounts(db);
  for (const [id, now] of after) {
    const before = baseline.get(id) ?? { count: 0, paid: 0 };
    if (now.count - before.count !== now.paid - before.paid) {
      mismatch(
        `domain ${id}: inquiry_count +${now.count - before.count} but paid inquiries +${now.paid - before.paid}`,
      );
    }
  }
  let rowsLost = 0;
  for (const done of completed) {
    const row = await db.get<{ id: number; status: string; amount_cents: number; created_at: string }>(
      "SELECT id, status, amount_cents, created_at FROM inquiries WHERE public_id = ?",
      [done.publicId],
    );
    if (!row || row.status !== "paid") {
      rowsLost += 1;
      continue;
    }
    const charges = await db.all<{ amount_cents: number }>(
      "SELECT amount_cents FROM test_payments WHERE inquiry_public_id = ? AND status = 'succeeded'",
      [done.publicId],
    );
    const payments = charges.map((p) => p.amount_cents);
    if (payments.length !== 1 || payments[0] !== row.amount_cents)
      mismatch(`inquiry ${done.publicId}: charged ${payments.join("+")} for ${row.amount_cents}`);
    if (done.seenCents !== row.amount_cents)
      mismatch(`inquiry ${done.publicId}: buyer saw ${done.seenCents}, stored ${row.amount_cents}`);
    const allowed = feesInForce(initialFee, feeEdits, done.askedAt, Date.parse(row.created_at));
    if (!allowed.has(row.amount_cents))
      mismatch(
        `inquiry ${done.publicId}: ${row.amount_cents} at ${row.created_at}, fee then ${[...allowed].join(" or ")}`,
      );
    const ownerEmails = await db.get<{ n: number }>(
      "SELECT count(*) AS n FROM outbox WHERE inquiry_id = ? AND kind = 'owner_inquiry'",
      [row.id],
    );
    if (ownerEmails!.n !== 1) mismatch(`inquiry ${done.publicId}: not exactly one owner email`);
  }
  // Paid inquiries nobody completed (e.g. counted twice) would show in the counts above; list strays too.
  const paidDuringLoad = (await db.get<{ n: number }>(
    "SELECT count(*) AS n FROM inquiries WHERE id > ? AND status = 'paid'",
    [inquiriesBefore],
  ))!.n;
  // A request that failed after its payment went through (a process killed mid-answer) leaves a paid
  // inquiry its buyer did not see confirmed: kept, not lost, and counted among the failures.
  if (paidDuringLoad < completed.length || paidDuringLoad > completed.length + failures) {
    mismatch(
      `${paidDuringLoad} inquiries paid during the load, ${completed.length} completed by buyers (${failures} requests failed)`,
    );
  }
  for (const [id, cents] of lastPrices) {
    const stored = (await db.get<{ c: number }>("SELECT asking_price_cents AS c FROM domains WHERE id = ?", [id]))!.c;
    if (stored !== cents) mismatch(`domain ${id}: price ${stored}, admin last set ${cents}`);
  }
  const finalFee = await currentFee(db);
  const lastFee = feeEdits.at(-1)?.cents ?? initialFee;
  if (finalFee !== lastFee) mismatch(`fee ${finalFee}, admin last set ${lastFee}`);
  const integrity = await db.integrity();
  if (integrity !== "ok") mismatch(`integrity_check: ${integrity}`);
  await db.close();

  const sorted = latencies.slice().sort((a, b) => a - b);
  const percentile = (p: number) =>
    sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : 0;
  return {
    durationMs,
    buyers: options.buyers,
    inquiriesCompleted: completed.length,
    requests: latencies.length,
    requestsPerSecond: latencies.length / (durationMs / 1000),
    p50Ms: percentile(50),
    p99Ms: percentile(99),
    failures,
    failureSamples,
    adminEdits,
    mismatches,
    mismatchSamples,
    rowsLost,
    feeEdits,
    ok: failures === 0 && mismatches === 0 && rowsLost === 0 && completed.length > 0 && adminEdits > 0,
  };
}

async function snapshotCounts(db: SqlReader): Promise<Map<number, { count: number; paid: number }>> {
  const rows = await db.all<{ id: number; count: number; paid: number }>(
    `SELECT d.id, d.inquiry_count AS count, (SELECT count(*) FROM inquiries i WHERE i.domain_id = d.id AND i.status = 'paid') AS paid
     FROM domains d`,
  );
  return new Map(rows.map((row) => [row.id, { count: row.count, paid: row.paid }]));
}

async function currentFee(db: SqlReader): Promise<number> {
  const row = await db.get<{ value: string }>("SELECT value FROM settings WHERE key = 'inquiry_fee'");
  return row ? Math.round(Number(row.value) * 100) : 1999;
}

/** The fees an inquiry created at `at` may carry: the one in force, or either side of an edit in flight. */
/**
 * The fees that were in force at some moment between `from` (the buyer's request was sent) and `to` (the
 * inquiry's created_at, taken after its fee was read): the server read the fee somewhere in between. A
 * busy process may take a while from reading the fee to stamping created_at, so one instant is not enough.
 */
function feesInForce(initial: number, edits: FeeEdit[], from: number, to: number): Set<number> {
  const allowed = new Set<number>();
  let inForce = initial;
  for (const edit of edits) {
    const done = edit.doneAt || Number.POSITIVE_INFINITY;
    if (done < from) {
      inForce = edit.cents;
      continue;
    }
    if (edit.sentAt <= to) allowed.add(edit.cents); // committed, or in flight, while the inquiry was made
  }
  allowed.add(inForce);
  return allowed;
}

export function formatLoadResult(result: LoadResult): string {
  return [
    `load: duration ${(result.durationMs / 1000).toFixed(1)} s, buyers ${result.buyers}, inquiries completed ${result.inquiriesCompleted},`,
    `requests ${result.requests}, ${result.requestsPerSecond.toFixed(1)} req/s, p50 ${result.p50Ms.toFixed(0)} ms, p99 ${result.p99Ms.toFixed(0)} ms,`,
    `failures ${result.failures}, admin edits ${result.adminEdits}, mismatches ${result.mismatches}, rows lost ${result.rowsLost}`,
  ].join(" ");
}

async function main(): Promise<void> {
  const seconds = Number(process.env.LOAD_SECONDS ?? 60);
  const buyers = Number(process.env.LOAD_BUYERS ?? 50);
  if (!(seconds > 0) || !(buyers > 0)) throw new Error("LOAD_SECONDS and LOAD_BUYERS must be positive numbers");
  const server = await startAppServer({ env: LOAD_SERVER_ENV });
  console.log(`load: ${buyers} buyers for ${seconds} s against ${server.url} (data in ${server.dataDir})`);
  let result: LoadResult;
  try {
    result = await runLoad({ url: server.url, database: server.env.DATABASE_URL!, seconds, buyers });
  } finally {
    const code = await server.stop();
    if (code !== 0) console.error(`server exited with ${code}:\n${server.output().slice(-2000)}`);
    removeDataDir(server);
  }
  console.log(formatLoadResult(result));
  for (const line of [...result.failureSamples, ...result.mismatchSamples]) console.log(`  ${line}`);
  console.log(result.ok ? "load: PASS" : "load: FAIL");
  process.exitCode = result.ok ? 0 : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
