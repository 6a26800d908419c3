// The admin's Deals page (issue 37 item 5): every deal, what is owed to each owner for names sold for
// them (completed deals not yet paid out) with "Mark paid out", a late transfer flagged, and "Refund deal".
import { sql, type ExpressionBuilder } from "kysely";
import type { Database, Deal } from "../../../db/schema";
import { centsToDollarText } from "../../lib/money";
import { db } from "../db/database.server";
import { inTransaction, isUniqueViolation } from "../db/dialect.server";
import { now, nowIso } from "../runtime/clock.server";
import { log } from "../runtime/log.server";
import { csvStream } from "../admin/portfolio-csv.server";
import { getPaymentProvider, RefundError, type ProviderName } from "../payments/index.server";
import { DEAL_STATUS_TEXT, findDealByPublicId } from "./deals.server";

const REFUNDABLE_STATUSES: readonly Deal["status"][] = ["paid", "transferred"];
/** A claim older than this was left by a process that stopped mid-refund: the reconciler finishes it. */
const REFUND_CLAIM_MS = 5 * 60 * 1000;

export const DEALS_PER_PAGE = 50;
/** Started buy nows never paid are checkouts, not deals: the list leaves them out. */
const LISTED = (eb: ExpressionBuilder<Database, "deals">) => eb("status", "!=", "checkout");

export interface AdminDealRow {
  id: number;
  publicId: string;
  domainName: string;
  priceCents: number;
  feeCreditedCents: number;
  amountPaidCents: number | null;
  buyer: string;
  owner: string;
  status: Deal["status"];
  statusText: string;
  createdAt: string;
  paidAt: string | null;
  completedAt: string | null;
  paidOutAt: string | null;
  transferLate: boolean;
  refundable: boolean;
}

const columns = [
  "id",
  "public_id",
  "domain_name",
  "price_cents",
  "fee_credited_cents",
  "amount_due_cents",
  "buyer_name",
  "buyer_email",
  "owner_email",
  "status",
  "created_at",
  "paid_at",
  "transfer_due_at",
  "completed_at",
  "paid_out_at",
] as const;
type Row = Pick<Deal, (typeof columns)[number]>;

function toRow(deal: Row, at: string): AdminDealRow {
  return {
    id: deal.id,
    publicId: deal.public_id,
    domainName: deal.domain_name,
    priceCents: Number(deal.price_cents),
    feeCreditedCents: Number(deal.fee_credited_cents),
    amountPaidCents: deal.paid_at ? Number(deal.amount_due_cents) : null,
    buyer: `${deal.buyer_name} <${deal.buyer_email}>`,
    owner: deal.owner_email,
    status: deal.status,
    statusText: DEAL_STATUS_TEXT[deal.status],
    createdAt: deal.created_at,
    paidAt: deal.paid_at,
    completedAt: deal.completed_at,
    paidOutAt: deal.paid_out_at,
    transferLate: deal.status === "paid" && !!deal.transfer_due_at && deal.transfer_due_at <= at,
    refundable: REFUNDABLE_STATUSES.includes(deal.status),
  };
}

export async function listDeals(
  page: number,
): Promise<{ rows: AdminDealRow[]; total: number; pageCount: number; page: number }> {
  const { n } = await db
    .selectFrom("deals")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where(LISTED)
    .executeTakeFirstOrThrow();
  const total = Number(n);
  const pageCount = Math.max(1, Math.ceil(total / DEALS_PER_PAGE));
  const current = Math.min(Math.max(1, page), pageCount);
  const rows = await db
    .selectFrom("deals")
    .select(columns)
    .where(LISTED)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(DEALS_PER_PAGE)
    .offset((current - 1) * DEALS_PER_PAGE)
    .execute();
  const at = now().toISOString();
  return { rows: rows.map((row) => toRow(row, at)), total, pageCount, page: current };
}

/**
 * Per owner: completed sales not yet paid out, the sum of their prices, and when the latest of them was
 * completed (`through`: "Mark paid out" marks those sales, not one completed after the page was read).
 */
export async function owedToOwners(): Promise<
  Array<{ owner: string; deals: number; owedCents: number; through: string }>
> {
  const rows = await db
    .selectFrom("deals")
    .select([
      sql<string>`lower(owner_email)`.as("owner"),
      (eb) => eb.fn.countAll<number>().as("deals"),
      (eb) => eb.fn.sum<number>("price_cents").as("owed"),
      (eb) => eb.fn.max("completed_at").as("through"),
    ])
    .where("status", "=", "completed")
    .where("paid_out_at", "is", null)
    .groupBy(sql`lower(owner_email)`)
    .orderBy("owner")
    .execute();
  return rows.map((row) => ({
    owner: row.owner,
    deals: Number(row.deals),
    owedCents: Number(row.owed),
    through: row.through ?? "",
  }));
}

/**
 * "Mark paid out": every completed deal of that owner not yet paid out and completed by `through` (the
 * latest completion the admin's page showed), at once; returns how many. A sale completed since stays owed.
 */
export async function markPaidOut(owner: string, through: string): Promise<number> {
  const result = await db
    .updateTable("deals")
    .set({ paid_out_at: nowIso(), updated_at: nowIso() })
    .where(sql<boolean>`lower(owner_email) = ${owner.trim().toLowerCase()}`)
    .where("status", "=", "completed")
    .where("paid_out_at", "is", null)
    .where("completed_at", "<=", through)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export type RefundDealResult = { ok: true } | { ok: false; message: string };

/**
 * "Refund deal": the full amount back through the provider and the name back on sale. For a paid deal
 * whose transfer did not arrive (or went wrong); never for a completed one. The deal is claimed first
 * ('refunding'), so the buyer cannot confirm receipt, nor the owner send the details, while the provider
 * refunds; a refusal from the provider puts it back as it was.
 */
export async function refundDeal(publicId: string): Promise<RefundDealResult> {
  const claimed = await db
    .updateTable("deals")
    .set({ status: "refunding", updated_at: nowIso() })
    .where("public_id", "=", publicId)
    .where("status", "in", REFUNDABLE_STATUSES)
    .where("payment_id", "is not", null)
    .returningAll()
    .executeTakeFirst();
  if (claimed) return finishRefund(claimed);
  const deal = await findDealByPublicId(publicId);
  return { ok: false, message: deal?.status === "refunding" ? BEING_REFUNDED_TEXT : NOT_REFUNDABLE_TEXT };
}

const NOT_REFUNDABLE_TEXT = "Only a paid deal that is not completed can be refunded.";
const BEING_REFUNDED_TEXT = "This deal is already being refunded.";
const NO_ANSWER_TEXT =
  "The payment provider did not answer. The refund is asked again automatically within minutes; until then the deal shows Being refunded.";

/**
 * The refund's idempotency key: one claim and the reconciler's retries of it share it (the claim's time
 * stays while the deal is 'refunding'), so the provider refunds once. Stripe answers a key's first request
 * again for 24 hours, refusals included, so a claim made after a refusal (last_error set) gets its own key.
 */
const refundKey = (deal: Deal) =>
  deal.last_error ? `deal-refund:${deal.public_id}:${deal.updated_at}` : `deal-refund:${deal.public_id}`;

/** Refunds a claimed deal ('refunding') through its provider, then closes it or, refused, puts it back. */
async function finishRefund(deal: Deal): Promise<RefundDealResult> {
  let failure: string | null = null;
  try {
    const refund = await getPaymentProvider(deal.provider as ProviderName).refund(deal.payment_id!, refundKey(deal));
    if (refund.status === "failed") failure = `The refund failed: ${refund.failureReason ?? "no reason given"}.`;
  } catch (error) {
    if (!(error instanceof RefundError)) throw error;
    // No answer (a timeout, a lost connection): the provider may have refunded. The claim stays and the
    // reconciler asks again with the same idempotency key once it is old (finishStaleRefunds).
    if (!error.definite) return { ok: false, message: NO_ANSWER_TEXT };
    failure = `The refund failed: ${error.message}`;
  }
  if (failure) {
    await db
      .updateTable("deals")
      .set({ status: deal.transfer_sent_at ? "transferred" : "paid", last_error: failure, updated_at: nowIso() })
      .where("id", "=", deal.id)
      .where("status", "=", "refunding")
      .execute();
    return { ok: false, message: failure };
  }
  try {
    await inTransaction(async (trx) => {
      const at = nowIso();
      const refunded = await trx
        .updateTable("deals")
        .set({ status: "refunded", closed_at: at, updated_at: at })
        .where("id", "=", deal.id)
        .where("status", "=", "refunding")
        .executeTakeFirst();
      if (refunded.numUpdatedRows !== 1n) return;
      await trx
        .updateTable("domains")
        .set({ sale_state: null, sold_at: null, deleted_at: null, updated_at: at })
        .where("id", "=", deal.domain_id)
        .where("sale_state", "=", "sold")
        .execute();
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // The name was listed again meanwhile (a new row): the deal is refunded, that listing stays.
    await db
      .updateTable("deals")
      .set({ status: "refunded", closed_at: nowIso(), updated_at: nowIso() })
      .where("id", "=", deal.id)
      .where("status", "=", "refunding")
      .execute();
  }
  return { ok: true };
}

/**
 * The reconciler's part: refunds a process claimed and never finished (it stopped, or the provider did not
 * answer), asked again with the same idempotency key, so the provider refunds once. Returns how many.
 */
export async function finishStaleRefunds(): Promise<number> {
  const stale = await db
    .selectFrom("deals")
    .selectAll()
    .where("status", "=", "refunding")
    .where("updated_at", "<=", new Date(now().getTime() - REFUND_CLAIM_MS).toISOString())
    .orderBy("id")
    .limit(20)
    .execute();
  let finished = 0;
  for (const deal of stale) {
    try {
      if ((await finishRefund(deal)).ok) finished++;
    } catch (error) {
      log.warn({ dealId: deal.id, error: (error as Error).message }, "a deal's refund could not be finished yet");
    }
  }
  return finished;
}

export function exportDealsCsv(): ReadableStream<Uint8Array> {
  return csvStream(
    [
      "id",
      "domain",
      "price",
      "fee_credited",
      "amount_paid",
      "buyer_name",
      "buyer_email",
      "owner_email",
      "status",
      "created_at",
      "paid_at",
      "completed_at",
      "paid_out_at",
    ],
    (afterId) =>
      db.selectFrom("deals").selectAll().where(LISTED).where("id", ">", afterId).orderBy("id").limit(1000).execute(),
    (deal) => [
      deal.id,
      deal.domain_name,
      centsToDollarText(Number(deal.price_cents)),
      centsToDollarText(Number(deal.fee_credited_cents)),
      deal.paid_at ? centsToDollarText(Number(deal.amount_due_cents)) : "",
      deal.buyer_name,
      deal.buyer_email,
      deal.owner_email,
      deal.status,
      deal.created_at,
      deal.paid_at ?? "",
      deal.completed_at ?? "",
      deal.paid_out_at ?? "",
    ],
  );
}
