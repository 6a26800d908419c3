// The admin's "what needs me now" numbers (issue 26, items 9 and 10): inquiries awaiting a reply, the
// fees of the last 30 days net of refunds, and the inbox's filters, each one SQL condition so that a
// filter's count and its list can never disagree.
import type { Expression, ExpressionBuilder, SqlBool } from "kysely";
import type { Database } from "../../../db/schema";
import type { InboxStatus } from "../../lib/admin-forms";
import { db } from "../db/database.server";
import { now } from "../runtime/clock.server";

type InquiryEb = ExpressionBuilder<Database, "inquiries">;
export type InboxBucket = Exclude<InboxStatus, "all">;
const INBOX_BUCKETS: InboxBucket[] = ["awaiting", "answered", "closed", "credited", "refunded"];

/**
 * Where a paid (or refunded) inquiry stands, as one condition per filter; together they cover every
 * listed inquiry exactly once. Credited and refunded ones are settled: neither paid nor awaiting.
 * "closed": unanswered past its deadline, its fee being refunded or credited.
 */
export function inBucket(eb: InquiryEb, bucket: InboxBucket, nowIso: string): Expression<SqlBool> {
  if (bucket === "refunded") return eb("status", "=", "refunded");
  const paid = eb("status", "=", "paid");
  if (bucket === "credited") return eb.and([paid, eb("credited_at", "is not", null)]);
  const unsettled = eb.and([paid, eb("credited_at", "is", null)]);
  if (bucket === "answered") return eb.and([unsettled, eb("answered_at", "is not", null)]);
  const unanswered = eb.and([unsettled, eb("answered_at", "is", null)]);
  if (bucket === "closed")
    return eb.and([unanswered, eb("reply_deadline_at", "is not", null), eb("reply_deadline_at", "<=", nowIso)]);
  return eb.and([unanswered, eb.or([eb("reply_deadline_at", "is", null), eb("reply_deadline_at", ">", nowIso)])]);
}

/** The inquiries the inbox lists: paid once, whatever became of the fee since. */
export function inInbox(eb: InquiryEb): Expression<SqlBool> {
  return eb.and([eb("paid_at", "is not", null), eb("status", "in", ["paid", "refunded"])]);
}

export interface AwaitingReply {
  count: number;
  /** The nearest reply-by deadline among them (ISO), or null when none has one. */
  nextDeadlineAt: string | null;
}

/** Inquiries waiting for the owner's reply, and the nearest reply-by deadline. */
export async function awaitingReply(): Promise<AwaitingReply> {
  const nowIso = now().toISOString();
  const row = await db
    .selectFrom("inquiries")
    .select((eb) => [eb.fn.countAll<number>().as("count"), eb.fn.min<string | null>("reply_deadline_at").as("next")])
    .where((eb) => eb.and([inInbox(eb), inBucket(eb, "awaiting", nowIso)]))
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), nextDeadlineAt: row.next ?? null };
}

export interface RecentFees {
  receivedCents: number;
  refundedCents: number;
  netCents: number;
}

const FEE_WINDOW_DAYS = 30;

/**
 * Money taken in fees in the last 30 days, less the fees refunded in those days. Inquiries paid with a
 * credit brought no money (a credit is not money); refunds of stray payments were never fees.
 */
export async function feesLast30Days(): Promise<RecentFees> {
  const since = new Date(now().getTime() - FEE_WINDOW_DAYS * 86_400_000).toISOString();
  const row = await db
    .selectFrom("inquiries")
    .select((eb) => [
      eb.fn
        .sum<number>(eb.case().when("paid_at", ">=", since).then(eb.ref("amount_cents")).else(0).end())
        .as("received"),
      eb.fn
        .sum<number>(
          eb
            .case()
            .when(eb.and([eb("status", "=", "refunded"), eb("refunded_at", ">=", since)]))
            .then(eb.ref("amount_cents"))
            .else(0)
            .end(),
        )
        .as("refunded"),
    ])
    .where((eb) =>
      eb.and([
        inInbox(eb),
        eb("provider", "!=", "credit"),
        eb("amount_cents", ">", 0),
        eb.or([eb("paid_at", ">=", since), eb("refunded_at", ">=", since)]),
      ]),
    )
    .executeTakeFirstOrThrow();
  const receivedCents = Number(row.received ?? 0);
  const refundedCents = Number(row.refunded ?? 0);
  return { receivedCents, refundedCents, netCents: receivedCents - refundedCents };
}

/** How many inquiries each inbox filter lists (for one domain's names, when given). */
export async function inboxCounts(
  domainNames: string[] | null,
  nowIso = now().toISOString(),
): Promise<Record<InboxStatus, number>> {
  let query = db.selectFrom("inquiries").where(inInbox);
  if (domainNames) query = query.where("domain_name", "in", domainNames);
  const row = await query
    .select((eb) =>
      INBOX_BUCKETS.map((bucket) =>
        eb.fn
          .sum<number>(
            eb
              .case()
              .when(inBucket(eb, bucket, nowIso))
              .then(1)
              .else(0)
              .end(),
          )
          .as(bucket),
      ),
    )
    .executeTakeFirstOrThrow();
  const counts = { all: 0 } as Record<InboxStatus, number>;
  for (const bucket of INBOX_BUCKETS) {
    counts[bucket] = Number((row as Record<string, unknown>)[bucket] ?? 0);
    counts.all += counts[bucket];
  }
  return counts;
}
