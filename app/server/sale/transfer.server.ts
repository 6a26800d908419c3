// The transfer handover (issue 37 item 4): after payment the owner sends the authorization code (or a
// note that the name was pushed to the buyer's registrar account); the code is stored encrypted and
// shown only on the buyer's deal page, never in email. The buyer confirms receipt and the deal is completed.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import type { Deal } from "../../../db/schema";
import { isOneLine } from "../../lib/inquiry";
import { TRANSFER_LIMITS } from "../../lib/sale";
import { nowIso } from "../runtime/clock.server";
import { inTransaction } from "../db/dialect.server";
import { withoutNul } from "../db/strip-nul.server";
import { env } from "../runtime/env.server";
import { queueCompletedEmail, queueTransferSentEmail } from "./deal-mail.server";
import { dealStatusNow } from "./deals.server";

export { TRANSFER_LIMITS };
export const TRANSFER_MISSING_TEXT = "Please give the authorization code or a note on how the name was transferred.";

// AES-256-GCM with a key derived from the session secret: a copy of the database alone does not show codes.
const VERSION = "v1";
function codeKey(): Buffer {
  return Buffer.from(hkdfSync("sha256", env.sessionSecret, "", "deal transfer code", 32));
}

export function encryptTransferCode(code: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", codeKey(), iv);
  const body = Buffer.concat([cipher.update(code, "utf8"), cipher.final()]);
  return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url")}`;
}

/** The code, or null when it cannot be read (another secret): the page then says so. */
export function decryptTransferCode(stored: string): string | null {
  const [version, payload] = stored.split(":");
  if (version !== VERSION || !payload) return null;
  try {
    const bytes = Buffer.from(payload, "base64url");
    const decipher = createDecipheriv("aes-256-gcm", codeKey(), bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}

export type TransferResult = { ok: true } | { ok: false; status: number; message: string };

export function readTransferForm(form: FormData): { code: string; note: string } {
  const text = (key: string) => {
    const value = form.get(key);
    return typeof value === "string" ? (withoutNul(value) as string).trim() : "";
  };
  return { code: text("authCode"), note: text("transferNote") };
}

export async function sendTransferDetails(
  deal: Deal,
  details: { code: string; note: string },
): Promise<TransferResult> {
  if (!details.code && !details.note) return { ok: false, status: 400, message: TRANSFER_MISSING_TEXT };
  if (details.code.length > TRANSFER_LIMITS.code || !isOneLine(details.code))
    return {
      ok: false,
      status: 400,
      message: `The authorization code must be one line of at most ${TRANSFER_LIMITS.code} characters.`,
    };
  if (details.note.length > TRANSFER_LIMITS.note)
    return { ok: false, status: 400, message: `The note must be at most ${TRANSFER_LIMITS.note} characters.` };
  return inTransaction(async (trx) => {
    const at = nowIso();
    const sent = await trx
      .updateTable("deals")
      .set({
        status: "transferred",
        transfer_code: details.code ? encryptTransferCode(details.code) : null,
        transfer_note: details.note || null,
        transfer_sent_at: at,
        updated_at: at,
      })
      .where("id", "=", deal.id)
      .where("status", "=", "paid")
      .returningAll()
      .executeTakeFirst();
    if (!sent) return { ok: false, status: 409, message: refusalFor(await dealStatusNow(deal.id, trx), "transfer") };
    await queueTransferSentEmail(sent, trx);
    return { ok: true };
  });
}

export async function confirmReceived(deal: Deal): Promise<TransferResult> {
  return inTransaction(async (trx) => {
    const at = nowIso();
    const done = await trx
      .updateTable("deals")
      .set({ status: "completed", completed_at: at, updated_at: at })
      .where("id", "=", deal.id)
      .where("status", "=", "transferred")
      .returningAll()
      .executeTakeFirst();
    if (!done) return { ok: false, status: 409, message: refusalFor(await dealStatusNow(deal.id, trx), "confirm") };
    await queueCompletedEmail(done, trx);
    return { ok: true };
  });
}

function refusalFor(status: Deal["status"], step: "transfer" | "confirm"): string {
  if (status === "completed") return "This sale is already completed.";
  if (step === "transfer" && status === "transferred") return "The transfer details were already sent.";
  if (step === "confirm" && status === "paid") return "The owner has not sent the transfer details yet.";
  if (status === "checkout" || status === "agreed") return "This sale has not been paid yet.";
  if (status === "refunding") return "This sale is being refunded.";
  return "This sale is closed.";
}
