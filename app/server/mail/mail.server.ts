// Outgoing email through an outbox table: queueing is a synchronous insert (it can share a database
// transaction with what caused it), and an in-process loop delivers with retries and backoff. A message
// is marked sent only after the SMTP server accepted it, so a failed send or a restart never loses one.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import nodemailer from "nodemailer";
import type { Transporter } from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport";
import { now, nowIso } from "../runtime/clock.server";
import { db, lazyStatement, sqlite } from "../db/database.server";
import { afterCommit, type Executor } from "../db/dialect.server";
import { env } from "../runtime/env.server";

export interface QueuedEmail {
  /** What the message is (e.g. "owner_inquiry", "buyer_receipt", "refund"); with inquiryId, at most one per kind. */
  kind: string;
  to: string;
  replyTo?: string | null;
  subject: string;
  text: string;
  inquiryId?: number | null;
}

interface OutboxRow {
  id: number;
  kind: string;
  to_address: string;
  reply_to: string | null;
  subject: string;
  text_body: string;
  inquiry_id: number | null;
  attempts: number;
}

const MAX_BACKOFF_MS = 60 * 60 * 1000;
const BATCH_SIZE = 20;
const IDLE_POLL_MS = 5_000;
/** Longer than one send can take (connection 10 s + greeting 10 s + socket 20 s timeouts). */
const LEASE_MS = 2 * 60 * 1000;

const selectDue = lazyStatement<[{ now: string; limit: number }], OutboxRow>(
  `SELECT id, kind, to_address, reply_to, subject, text_body, inquiry_id, attempts FROM outbox
   WHERE sent_at IS NULL AND dead_at IS NULL AND next_attempt_at <= @now AND (lease_until IS NULL OR lease_until <= @now)
   ORDER BY next_attempt_at, id LIMIT @limit`,
);
// Another process on the same database may be draining too: only the process whose UPDATE changed
// the row sends it. The lease outlasts a send (SMTP timeouts below); a process that dies mid-send
// leaves the message to be sent again once its lease expires (at least once, never lost).
const claimMessage = lazyStatement<[{ now: string; lease: string; id: number }]>(
  `UPDATE outbox SET lease_until = @lease
   WHERE id = @id AND sent_at IS NULL AND dead_at IS NULL AND next_attempt_at <= @now AND (lease_until IS NULL OR lease_until <= @now)`,
);
// A message another process holds a lease on is due again only when that lease runs out.
const selectNextDue = lazyStatement<[], { next_attempt_at: string }>(
  `SELECT max(next_attempt_at, coalesce(lease_until, next_attempt_at)) AS next_attempt_at FROM outbox
   WHERE sent_at IS NULL AND dead_at IS NULL ORDER BY 1 LIMIT 1`,
);
const markSent = lazyStatement<[string, number]>(
  "UPDATE outbox SET sent_at = ?, attempts = attempts + 1, last_error = NULL, lease_until = NULL WHERE id = ? AND sent_at IS NULL",
);
const markFailed = lazyStatement<[string, string, number]>(
  "UPDATE outbox SET attempts = attempts + 1, last_error = ?, next_attempt_at = ?, lease_until = NULL WHERE id = ? AND sent_at IS NULL",
);
const markDead = lazyStatement<[string, string, number]>(
  "UPDATE outbox SET attempts = attempts + 1, last_error = ?, dead_at = ?, lease_until = NULL WHERE id = ? AND sent_at IS NULL",
);
const markOwnerNotified = lazyStatement<[string, number]>(
  "UPDATE inquiries SET owner_notified_at = ? WHERE id = ? AND owner_notified_at IS NULL",
);

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
    writeFileSync(path.join(dir, `${String(row.id).padStart(6, "0")}-${row.kind}.eml`), (info as { message: Buffer }).message, { mode: 0o600 });
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

/** Sends every due message once; failures are rescheduled with exponential backoff. */
export async function drainOutbox(): Promise<void> {
  if (draining) return draining;
  const run = async () => {
    for (;;) {
      if (!sqlite.open) return;
      const due = selectDue().all({ now: nowIso(), limit: BATCH_SIZE });
      if (due.length === 0) return;
      for (const row of due) {
        const claimedAt = now();
        const lease = new Date(claimedAt.getTime() + LEASE_MS).toISOString();
        if (claimMessage().run({ now: claimedAt.toISOString(), lease, id: row.id }).changes !== 1) continue;
        try {
          await deliver(row);
          const sentAt = nowIso();
          sqlite.transaction(() => {
            markSent().run(sentAt, row.id);
            if (row.kind === OWNER_INQUIRY_KIND && row.inquiry_id !== null) markOwnerNotified().run(sentAt, row.inquiry_id);
          })();
        } catch (error) {
          const message = (error as Error).message.slice(0, 500);
          const retryAt = new Date(now().getTime() + backoffMs(row.attempts)).toISOString();
          const dead = isPermanentRefusal(error) && row.attempts + 1 >= DEAD_AFTER_ATTEMPTS;
          if (sqlite.open) {
            if (dead) markDead().run(message, nowIso(), row.id);
            else markFailed().run(message, retryAt, row.id);
          }
          console.error(
            JSON.stringify({ msg: dead ? "mail undeliverable" : "mail send failed", outboxId: row.id, attempt: row.attempts + 1, retryAt: dead ? null : retryAt, error: message }),
          );
        }
        if (!running) return;
      }
    }
  };
  // Cleared in a later tick, after the assignment (run() may finish synchronously).
  draining = run().finally(() => {
    draining = null;
  });
  return draining;
}

export const OWNER_INQUIRY_KIND = "owner_inquiry";

function scheduleNext(): void {
  clearTimeout(timer);
  if (!running) return;
  let delay = IDLE_POLL_MS;
  const next = sqlite.open ? selectNextDue().get() : undefined;
  if (next) delay = Math.max(0, Math.min(IDLE_POLL_MS, Date.parse(next.next_attempt_at) - now().getTime()));
  timer = setTimeout(() => wakeOutbox(), delay);
  timer.unref();
}

/** Runs a drain now (or right after the current one) and reschedules the loop. */
export function wakeOutbox(): void {
  if (!running) return;
  void drainOutbox()
    .catch((error) => console.error(JSON.stringify({ msg: "outbox drain failed", error: (error as Error).message })))
    .finally(scheduleNext);
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
    await draining?.catch(() => {});
    transporter?.close();
    transporter = undefined;
  },
};
