import { sql } from "kysely";
import type { Domain } from "../../../db/schema";
import { lookupCandidates } from "../../lib/domain-name";
import { nowIso } from "../runtime/clock.server";
import { db } from "../db/database.server";
import { compiledOnce, type Executor } from "../db/dialect.server";

export type PublicDomain = Pick<Domain, "id" | "domain_name" | "asking_price_cents" | "created_at">;

// Every public page asks one of these first: compiled once (compiledOnce), run with the names asked.
const liveByName = compiledOnce<Domain, [string]>((executor) =>
  executor.selectFrom("domains").selectAll().where("domain_name", "=", "").where("deleted_at", "is", null),
);
const liveByEitherName = compiledOnce<Domain, [string, string]>((executor) =>
  executor.selectFrom("domains").selectAll().where("domain_name", "in", ["", ""]).where("deleted_at", "is", null),
);

/** A listed domain by its full stored name (e.g. "example.com"), exactly. */
export async function findLiveDomainByName(name: string): Promise<Domain | null> {
  return (await liveByName([name]))[0] ?? null;
}

/** A route parameter to a listed domain: "{name}.com" first for a name with no dot, then the raw name. */
export async function findDomainByParam(param: string): Promise<Domain | null> {
  const candidates = lookupCandidates(param);
  if (candidates.length === 0) return null;
  if (candidates.length === 1) return findLiveDomainByName(candidates[0]!);
  // One query for both names; the first candidate wins when both are listed.
  return firstOfCandidates(candidates, await liveByEitherName([candidates[0]!, candidates[1]!]));
}

/** The row of the first candidate name that has one (lookupCandidates' order), else null. */
function firstOfCandidates(candidates: string[], rows: Domain[]): Domain | null {
  for (const candidate of candidates) {
    const row = rows.find((each) => each.domain_name === candidate);
    if (row) return row;
  }
  return null;
}

// A sold name by name (index domains_sold_name, migration 0250), the latest sale first: read after a
// listed name is not found, so a /domain page's miss costs a second prepared read, not a scan.
const soldByName = compiledOnce<Domain, [string]>((executor) =>
  executor
    .selectFrom("domains")
    .selectAll()
    .where("domain_name", "=", "")
    .where("sold_at", "is not", null)
    .orderBy("sold_at", "desc"),
);
const soldByEitherName = compiledOnce<Domain, [string, string]>((executor) =>
  executor
    .selectFrom("domains")
    .selectAll()
    .where("domain_name", "in", ["", ""])
    .where("sold_at", "is not", null)
    .orderBy("sold_at", "desc"),
);

/** A sold name by a route parameter (its page says it has been sold), the latest sale first; else null. */
export async function findSoldDomainByParam(param: string): Promise<Domain | null> {
  const candidates = lookupCandidates(param);
  if (candidates.length === 0) return null;
  if (candidates.length === 1) return (await soldByName([candidates[0]!]))[0] ?? null;
  return firstOfCandidates(candidates, await soldByEitherName([candidates[0]!, candidates[1]!]));
}

/** Count and asking-price sum of live domains, kept by triggers (migration 0031): one row read. */
export async function liveDomainTotals(executor: Executor = db): Promise<{ count: number; valueCents: number }> {
  const row = await executor
    .selectFrom("domain_totals")
    .select(["live_count", "live_value_cents"])
    .where("id", "=", 1)
    .executeTakeFirst();
  return { count: Number(row?.live_count ?? 0), valueCents: Number(row?.live_value_cents ?? 0) };
}

export interface DomainPage<T> {
  rows: T[];
  total: number;
  page: number;
  pageCount: number;
}

export interface NewDomainInput {
  domainName: string;
  askingPriceCents: number;
  trackingId: string;
  ownerEmail: string;
  pitch?: string | null;
  buyNowCents?: number | null;
}

export async function insertDomain(input: NewDomainInput, executor: Executor = db): Promise<Domain> {
  const timestamp = nowIso();
  return executor
    .insertInto("domains")
    .values({
      domain_name: input.domainName,
      asking_price_cents: input.askingPriceCents,
      tracking_id: input.trackingId,
      owner_email: input.ownerEmail,
      pitch: input.pitch ?? null,
      buy_now_cents: input.buyNowCents ?? null,
      created_at: timestamp,
      updated_at: timestamp,
      deleted_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * A domain whose owner email is `email` (trimmed and lower-cased), as owners are grouped everywhere: case
 * and surrounding spaces ignored, the expression index domains_owner_email (migration 0050) matches.
 */
export function ownerEmailIs(email: string, column = "domains.owner_email") {
  return sql<boolean>`lower(trim(${sql.ref(column)})) = ${email}`;
}

/**
 * An inquiry sent to the owner `email` (normalized) when it was paid, matched as ownerEmailIs matches
 * domains (index inquiries_owner_email, migration 0220): a domain's later owner never sees it.
 */
export function inquiryOwnerIs(email: string) {
  return ownerEmailIs(email, "inquiries.owner_email");
}
