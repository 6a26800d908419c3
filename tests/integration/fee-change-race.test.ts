import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeDataDir, startAppServer, type AppServer } from "../support/app-server";
import { insertDomain, uniqueDomainName } from "../support/data";
import { BUYER, postForm, postJson, setFeeCents, waitFor } from "../support/http";
import { untilWaitingForLock } from "../support/sqlite-lock";

// The fee switches between free and paid while an inquiry is being made. The server reads the fee once
// to choose the path (rate limit, provider) and again inside the inquiry's transaction: when the two
// disagree, the buyer is asked to review instead of being charged, or let through free, by surprise.
// To land the change between the two reads, a second SQLite connection holds the write lock with the
// new fee written but not committed: the server's first read sees the old fee, its transaction waits
// for the lock (busy_timeout) and then reads the new one. SQLite only (PostgreSQL's reads do not wait).
const FEE_CHANGED = "The inquiry fee has just changed. Please review it and send your inquiry again.";
let app: AppServer;

beforeAll(async () => {
  app = await startAppServer();
  // Both routes once (refused: fields missing), so neither loads code while the race below runs.
  const { short } = newDomain();
  await postForm(app, `/payment/${short}`, { intent: "inquiry" });
  await postJson(app, "/api/create-payment-intent", { domain_name: short, customer_info: {} });
});
afterAll(async () => {
  await app?.stop();
  if (app) removeDataDir(app);
});

function newDomain() {
  const name = uniqueDomainName("race");
  const id = insertDomain(app.db(), { name, priceCents: 250_000 });
  return { id, short: name.replace(/\.com$/, "") };
}

/** Runs `send` while another connection changes the fee to `cents`, committing once the request waits. */
async function whileFeeChangesTo<T>(cents: number, send: () => Promise<T>): Promise<T> {
  // A background write (the outbox marking mails sent) queued behind the lock would hold the server's
  // one connection, and the request's first read would only run after the change: wait until it is idle.
  await waitFor(() => unsentMails() === 0, 10_000, "outbox idle");
  const holder = new Database(app.dbPath);
  holder.pragma("busy_timeout = 10000");
  holder.exec("BEGIN IMMEDIATE");
  setFeeCents(holder, cents);
  const reply = send();
  // The server has read the old fee and waits behind the lock (within busy_timeout, 5 s): commit then.
  await untilWaitingForLock(app);
  holder.exec("COMMIT");
  holder.close();
  return reply;
}

const unsentMails = () =>
  (
    app.db().prepare("SELECT count(*) AS n FROM outbox WHERE sent_at IS NULL AND dead_at IS NULL").get() as {
      n: number;
    }
  ).n;
const inquiriesFor = (domainId: number) =>
  app.db().prepare("SELECT status, amount_cents FROM inquiries WHERE domain_id = ?").all(domainId);

describe("the fee switches between free and paid during an inquiry", () => {
  it("paid to free (no JavaScript): 409 asking to review, the form kept, nothing stored; sent again, it is free", async () => {
    setFeeCents(app.db(), 1999);
    const domain = newDomain();
    const fields = { intent: "inquiry", ...BUYER, message: "Is this name still available?" };
    const reply = await whileFeeChangesTo(0, () => postForm(app, `/payment/${domain.short}`, fields));
    expect(reply.status).toBe(409);
    expect(reply.body).toContain(FEE_CHANGED);
    expect(reply.body).toContain("Is this name still available?");
    expect(inquiriesFor(domain.id)).toEqual([]);

    const again = await postForm(app, `/payment/${domain.short}`, fields);
    expect(again.status).toBe(303);
    expect(inquiriesFor(domain.id)).toEqual([{ status: "paid", amount_cents: 0 }]);
  });

  it("free to paid (JavaScript): 409 with the message, nothing stored or charged", async () => {
    setFeeCents(app.db(), 0);
    const domain = newDomain();
    const body = { domain_name: domain.short, customer_info: { ...BUYER } };
    const reply = await whileFeeChangesTo(2500, () => postJson(app, "/api/create-payment-intent", body));
    expect(reply.status).toBe(409);
    expect(reply.json.error).toBe(FEE_CHANGED);
    expect(inquiriesFor(domain.id)).toEqual([]);

    const again = await postJson(app, "/api/create-payment-intent", body);
    expect(again.status).toBe(200);
    expect(again.json.amount).toBe(2500);
  });
});
