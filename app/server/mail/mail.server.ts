// Outgoing email through an outbox table: queueing is an insert (it can share the database
// transaction with what caused it), and an in-process loop delivers with retries and backoff. A message
// is marked sent only after the SMTP server accepted it, so a failed send or a restart never loses one.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { sql, type ExpressionBuilder, type Selectable } from "kysely";
import nodemailer from "nodemailer";
import type { Transporter } from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport";
import { now, nowIso } from "../runtime/clock.server";
import { db, isDatabaseOpen } from "../db/database.server";
import { afterCommit, greatest, inTransaction, skipLocked, type Executor } from "../db/dialect.server";
import type { OutboxTable, Database as Schema } from "../../../db/schema";
import { env } from "../runtime/env.server";
import { log } from "../runtime/log.server";

export interface QueuedEmail {
  /** What the message is (e.g. "owner_inquiry", "buyer_receipt", "refund"); with inquiryId, at most one per kind. */
  kind: string;
  to: string;
  replyTo?: string | null;
  subject: string;
  text: string;
  inquiryId?: number | null;
}

type OutboxRow = Pick<
  Selectable<OutboxTable>,
  "id" | "kind" | "to_address" | "reply_to" | "subject" | "text_body" | "inquiry_id" | "attempts"
>;
/** A message this process claimed, with the lease it holds on it (the time it runs out, as written). */
type ClaimedRow = OutboxRow & { lease_until: string };

const MAX_BACKOFF_MS = 60 * 60 * 1000;
/**
 * Messages one process sends at once, each over its own SMTP connection (closed after the message: a
 * pool would keep idle connections open to the mail server between bursts).
 */
const SENDERS = 4;
const IDLE_POLL_MS = 5_000;

/**
 * Queues an email; returns its outbox id, or null when this kind was already queued for the inquiry
 * (outbox_once). Pass the caller's transaction to queue it with what caused it; delivery starts once
 * that transaction commits.
 */
export async function queueEmail(message: QueuedEmail, executor: Executor = db): Promise<number | null> {
  const timestamp = nowIso();
  const testMode = env.payments === "test";
  const row = await executor
    .insertInto("outbox")
    .values({
      kind: message.kind,
      to_address: message.to,
      reply_to: message.replyTo ?? null,
      subject: singleLine(testMode ? `${message.subject} ${TEST_MODE_SUBJECT}` : message.subject),
      text_body: testMode ? `${TEST_MODE_NOTICE}\n\n${message.text}` : message.text,
      inquiry_id: message.inquiryId ?? null,
      next_attempt_at: timestamp,
      created_at: timestamp,
    })
    .onConflict((oc) => oc.doNothing())
    .returning("id")
    .executeTakeFirst();
  if (!row) return null;
  afterCommit(executor, () => wakeOutbox());
  return row.id;
}

// While the site takes test payments no money moves: every email says so, so nobody acts on a fake payment.
export const TEST_MODE_SUBJECT = "[test mode - no real charge]";
export const TEST_MODE_NOTICE = "TEST MODE: a test payment, no money was charged or moved.";

function singleLine(text: string): string {
  return text
    .replace(/[\r\n]+/g, " ")
    .trim()
    .slice(0, 250);
}

function fromAddress(): string {
  if (env.MAIL_FROM) return env.MAIL_FROM;
  const host = env.PUBLIC_URL ? new URL(env.PUBLIC_URL).hostname : "localhost";
  return `"${env.SITE_NAME.replace(/"/g, "")}" <no-reply@${host}>`;
}

let transporter: Transporter | undefined;
function getTransporter(): Transporter {
  transporter ??= env.SMTP_URL
    ? nodemailer.createTransport({
        url: env.SMTP_URL,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 20_000,
      } satisfies SMTPTransport.Options)
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return transporter;
}

async function deliver(row: OutboxRow): Promise<void> {
  const info = await getTransporter().sendMail({
    from: fromAddress(),
    to: row.to_address,
    replyTo: row.reply_to ?? undefined,
    subject: row.subject,
    text: row.text_body,
    messageId: `<outbox-${row.id}-${row.kind}@${env.PUBLIC_URL ? new URL(env.PUBLIC_URL).hostname : "localhost"}>`,
  });
  if (!env.SMTP_URL) {
    // Without SMTP, each message becomes a file the operator can open in any mail program.
    const dir = path.join(env.dataDir, "mail");
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(
      path.join(dir, `${String(row.id).padStart(6, "0")}-${row.kind}.eml`),
      (info as { message: Buffer }).message,
      { mode: 0o600 },
    );
  }
}

/**
 * A permanent refusal (SMTP 5xx, e.g. "550 no such user") is tried a few times (a misconfigured
 * server may be fixed meanwhile), then stops and shows in the admin inbox as undeliverable.
 */
export const DEAD_AFTER_ATTEMPTS = 3;
function isPermanentRefusal(error: unknown): boolean {
  const code = (error as { responseCode?: unknown }).responseCode;
  return typeof code === "number" && code >= 500 && code < 600;
}

function backoffMs(attempts: number): number {
  return Math.min(env.MAIL_RETRY_BASE_MS * 2 ** Math.min(attempts, 20), MAX_BACKOFF_MS);
}

let running = false;
let draining: Promise<void> | null = null;
let timer: NodeJS.Timeout | undefined;
/** Wake-ups still running their drain or rescheduling: stop() waits for them before the database closes. */
const cycles = new Set<Promise<void>>();

const OUTBOX_COLUMNS = [
  "id",
  "kind",
  "to_address",
  "reply_to",
  "subject",
  "text_body",
  "inquiry_id",
  "attempts",
  "lease_until",
] as const;

/** Unsent, not given up, due, and not leased to a sender (or its lease ran out). */
function isDueAt(at: string) {
  return (eb: ExpressionBuilder<Schema, "outbox">) =>
    eb.and([
      eb("sent_at", "is", null),
      eb("dead_at", "is", null),
      eb("next_attempt_at", "<=", at),
      eb.or([eb("lease_until", "is", null), eb("lease_until", "<=", at)]),
    ]);
}

/**
 * Takes up to SENDERS due messages for this process in one statement. Other processes on the same
 * database drain too: on PostgreSQL rows another claim has locked are skipped (each process gets its own
 * messages instead of queueing behind the same ones), and the lease keeps them this process's until sent.
 * The sender renews the lease while a send lasts (holdLease); a process that dies mid-send leaves its
 * messages to be sent again once the lease expires (at least once, never lost).
 */
async function claimDue(at: Date): Promise<ClaimedRow[]> {
  const due = isDueAt(at.toISOString());
  return db
    .updateTable("outbox")
    .set({ lease_until: new Date(at.getTime() + env.MAIL_LEASE_MS).toISOString() })
    .where("id", "in", (eb) =>
      skipLocked(
        eb.selectFrom("outbox").select("id").where(due).orderBy("next_attempt_at").orderBy("id").limit(SENDERS),
      ),
    )
    .where(due)
    .returning(OUTBOX_COLUMNS)
    .$narrowType<{ lease_until: string }>()
    .execute();
}

interface Lease {
  /** The lease as this process last wrote it, for the outcome's update to match. */
  held: () => string;
  /** Whether another process holds the message now (a renewal found someone else's lease). */
  lost: () => boolean;
  /** Stops renewing; resolves once a renewal in progress has finished. */
  release: () => Promise<void>;
}

/**
 * Keeps a claimed message's lease while it is sent: renewed every third of MAIL_LEASE_MS, only while the
 * lease is still the one this process wrote. A slow SMTP server then never lets another process take the
 * message over and send it again; only a process that stops mid-send (or cannot reach its database for
 * a whole lease) does.
 */
function holdLease(row: ClaimedRow): Lease {
  let held = row.lease_until;
  let lost = false;
  let renewing: Promise<void> = Promise.resolve();
  const renew = async () => {
    const until = new Date(now().getTime() + env.MAIL_LEASE_MS).toISOString();
    try {
      const result = await db
        .updateTable("outbox")
        .set({ lease_until: until })
        .where("id", "=", row.id)
        .where("lease_until", "=", held)
        .where("sent_at", "is", null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 1) held = until;
      else lost = true;
    } catch (error) {
      // The lease may run out meanwhile; the outcome's update then finds out.
      const message = (error as Error).message;
      log.error({ outboxId: row.id, error: message }, "mail lease renewal failed");
    }
  };
  const timer = setInterval(
    () => {
      if (lost || !isDatabaseOpen()) return;
      renewing = renewing.then(renew);
    },
    Math.max(100, Math.floor(env.MAIL_LEASE_MS / 3)),
  );
  timer.unref();
  return {
    held: () => held,
    lost: () => lost,
    release: async () => {
      clearInterval(timer);
      await renewing;
    },
  };
}

/**
 * The SMTP server accepted the message: it is sent, whoever holds the lease now (recording it keeps the
 * new holder, if it has not sent yet, from sending it again). Sent without the lease is logged: another
 * process may have sent it too.
 */
async function markSent(row: ClaimedRow, lease: Lease): Promise<void> {
  const sentAt = nowIso();
  await inTransaction(async (trx) => {
    await trx
      .updateTable("outbox")
      .set((eb) => ({ sent_at: sentAt, attempts: eb("attempts", "+", 1), last_error: null, lease_until: null }))
      .where("id", "=", row.id)
      .where("sent_at", "is", null)
      .execute();
    if (lease.lost()) {
      log.warn({ outboxId: row.id }, "mail sent after its lease was lost: another process may send it too");
    }
    if (row.kind === OWNER_INQUIRY_KIND && row.inquiry_id !== null) {
      await trx
        .updateTable("inquiries")
        .set({ owner_notified_at: sentAt })
        .where("id", "=", row.inquiry_id)
        .where("owner_notified_at", "is", null)
        .execute();
    }
  });
}

/**
 * A failed attempt: tried again at `retryAt`, or given up for good (`dead`). Recorded only while this
 * process still holds the lease: a process that took the message over decides its outcome.
 */
async function markFailed(
  id: number,
  lease: Lease,
  error: string,
  outcome: { dead: true } | { dead: false; retryAt: string },
): Promise<boolean> {
  const result = await db
    .updateTable("outbox")
    .set((eb) => ({
      attempts: eb("attempts", "+", 1),
      last_error: error,
      lease_until: null,
      ...(outcome.dead ? { dead_at: nowIso() } : { next_attempt_at: outcome.retryAt }),
    }))
    .where("id", "=", id)
    .where("sent_at", "is", null)
    .where("lease_until", "=", lease.held())
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** When the next unsent message is due; one another process holds a lease on is due when that lease runs out. */
async function selectNextDue(): Promise<string | undefined> {
  const row = await db
    .selectFrom("outbox")
    .select(
      greatest("next_attempt_at", sql`coalesce(lease_until, next_attempt_at)`)
        .$castTo<string>()
        .as("due_at"),
    )
    .where("sent_at", "is", null)
    .where("dead_at", "is", null)
    .orderBy("due_at")
    .limit(1)
    .executeTakeFirst();
  return row?.due_at;
}

export type DeadLetter = {
  id: number;
  kind: string;
  to_address: string;
  subject: string;
  attempts: number;
  last_error: string | null;
  dead_at: string;
};

/** Messages given up on (the newest 100), for the admin's list of problems. */
export async function listDeadLetters(): Promise<DeadLetter[]> {
  return db
    .selectFrom("outbox")
    .select(["id", "kind", "to_address", "subject", "attempts", "last_error"])
    .select((eb) => eb.ref("dead_at").$notNull().as("dead_at"))
    .where("dead_at", "is not", null)
    .orderBy("id", "desc")
    .limit(100)
    .execute();
}

/** Sends one claimed message and records the outcome: sent, to be tried again later, or given up. */
async function send(row: ClaimedRow): Promise<void> {
  const lease = holdLease(row);
  try {
    await deliver(row);
  } catch (error) {
    await lease.release();
    const message = (error as Error).message.slice(0, 500);
    const retryAt = new Date(now().getTime() + backoffMs(row.attempts)).toISOString();
    const dead = isPermanentRefusal(error) && row.attempts + 1 >= DEAD_AFTER_ATTEMPTS;
    const outcome = dead ? ({ dead } as const) : ({ dead, retryAt } as const);
    const recorded = isDatabaseOpen() && (await markFailed(row.id, lease, message, outcome));
    log.error(
      {
        outboxId: row.id,
        attempt: row.attempts + 1,
        retryAt: dead ? null : retryAt,
        error: message,
        ...(recorded ? {} : { recorded: false, reason: "another process holds the message now" }),
      },
      dead ? "mail undeliverable" : "mail send failed",
    );
    return;
  }
  await lease.release();
  await markSent(row, lease);
}

/** Sends every due message once, SENDERS at a time; failures are rescheduled with exponential backoff. */
export async function drainOutbox(): Promise<void> {
  if (draining) return draining;
  const run = async () => {
    for (;;) {
      if (!isDatabaseOpen()) return;
      const claimed = await claimDue(now());
      if (claimed.length === 0) return;
      await Promise.all(claimed.map(send));
      if (!running) return;
    }
  };
  // Cleared in a later tick, after the assignment.
  draining = run().finally(() => {
    draining = null;
  });
  return draining;
}

export const OWNER_INQUIRY_KIND = "owner_inquiry";

async function scheduleNext(): Promise<void> {
  if (!running || !isDatabaseOpen()) return;
  const next = await selectNextDue();
  if (!running) return;
  let delay = IDLE_POLL_MS;
  if (next) delay = Math.max(0, Math.min(IDLE_POLL_MS, Date.parse(next) - now().getTime()));
  // Cleared after the query: two wake-ups rescheduling at once leave one timer.
  clearTimeout(timer);
  timer = setTimeout(() => wakeOutbox(), delay);
  timer.unref();
}

/** Runs a drain now (or right after the current one) and reschedules the loop. */
export function wakeOutbox(): void {
  if (!running) return;
  const cycle = drainOutbox()
    .catch((error) => log.error({ error: (error as Error).message }, "outbox drain failed"))
    .then(scheduleNext)
    .catch((error) => {
      // Without a timer the loop would stop: try again after the idle interval.
      log.error({ error: (error as Error).message }, "outbox reschedule failed");
      if (!running) return;
      clearTimeout(timer);
      timer = setTimeout(() => wakeOutbox(), IDLE_POLL_MS);
      timer.unref();
    })
    .finally(() => cycles.delete(cycle));
  cycles.add(cycle);
}

/** The background task: registered in startup.server.ts. A restart resumes whatever is unsent. */
export const outboxTask = {
  start() {
    running = true;
    wakeOutbox();
  },
  async stop() {
    running = false;
    clearTimeout(timer);
    await Promise.all(cycles);
    clearTimeout(timer);
    transporter?.close();
    transporter = undefined;
  },
};
