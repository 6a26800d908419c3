// Email in an in-process test: no outbox task runs (nothing was started), so the test sends what is queued
// when it wants to read it. Without SMTP_URL the app writes each message to <data folder>/mail/*.eml
// (app/server/mail/mail.server.ts), which is what a test reads: the same message an SMTP server would get.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { db } from "../../../app/server/db/database.server";
import { drainOutbox } from "../../../app/server/mail/mail.server";
import { nowIso } from "../../../app/server/runtime/clock.server";
import { env } from "../../../app/server/runtime/env.server";
import type { ReceivedMail } from "../smtp";

function mailFiles(): string[] {
  const folder = join(env.dataDir, "mail");
  return existsSync(folder)
    ? readdirSync(folder)
        .filter((name) => name.endsWith(".eml"))
        .sort()
    : [];
}

/** Sends every message due now (as the outbox task would), then returns all sent so far, oldest first. */
export async function sentMail(): Promise<ReceivedMail[]> {
  await sendDueMail();
  return mailFiles().map((name) => {
    const raw = readFileSync(join(env.dataDir, "mail", name), "utf8");
    const header = (field: string) => new RegExp(`^${field}: (.*(?:\\n[ \\t].*)*)`, "m").exec(raw)?.[1] ?? "";
    const addresses = (value: string) => [...value.matchAll(/[^\s<>,"]+@[^\s<>,"]+/g)].map((match) => match[0]);
    return { from: addresses(header("From"))[0] ?? "", to: addresses(header("To")), raw };
  });
}

/**
 * Sends every message due now, as the outbox task would, and returns when nothing due is left: to the
 * .eml files, or with SMTP_URL set (a test SMTP server, tests/support/smtp.ts) to that server.
 */
export async function sendDueMail(): Promise<void> {
  await drainOutbox();
  // A batch at a time: drain again until a drain sends nothing more.
  for (let drains = 0; drains < 20 && (await hasDueMail()); drains++) await drainOutbox();
}

async function hasDueMail(): Promise<boolean> {
  const due = await db
    .selectFrom("outbox")
    .select("id")
    .where("sent_at", "is", null)
    .where("dead_at", "is", null)
    .where("next_attempt_at", "<=", nowIso())
    .executeTakeFirst();
  return due !== undefined;
}
