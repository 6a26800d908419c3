import { sql } from "kysely";
import type { Domain } from "../../../db/schema";
import { asciiSearchTerm, lookupCandidates } from "../../lib/domain-name";
import { MAX_SEARCH_LENGTH } from "../../lib/search";
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
  const rows = await liveByEitherName([candidates[0]!, candidates[1]!]);
  for (const candidate of candidates) {
    const row = rows.find((each) => each.domain_name === candidate);
    if (row) return row;
  }
  return null;
}

function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/** Count and asking-price sum of live domains, kept by triggers (migration 0031): one row read. */
export async function liveDomainTotals(executor: Executor = db): Promise<{ count: number; valueCents: number }> {
  const row = await executor.selectFrom("domain_totals").select(["live_count", "live_value_cents"]).where("id", "=", 1).executeTakeFirst();
  return { count: Number(row?.live_count ?? 0), valueCents: Number(row?.live_value_cents ?? 0) };
}

export interface DomainPage<T> {
  rows: T[];
  total: number;
  page: number;
  pageCount: number;
}

/** Live domains, newest first, optionally filtered by a search term, one page at a time. */
export async function listPublicDomains(options: {
  search?: string;
  page: number;
  perPage: number;
}): Promise<DomainPage<PublicDomain>> {
  // Names are stored in their ASCII form: "münchen" is looked for as "xn--mnchen-3ya".
  const term = asciiSearchTerm((options.search ?? "").trim().toLowerCase().slice(0, MAX_SEARCH_LENGTH));
  let query = db.selectFrom("domains").where("deleted_at", "is", null);
  if (term) query = query.where(sql<boolean>`domain_name LIKE ${`%${escapeLike(term)}%`} ESCAPE '\\'`);
  const total = term
    ? Number((await query.select((eb) => eb.fn.countAll<number>().as("total")).executeTakeFirstOrThrow()).total)
    : (await liveDomainTotals()).count;
  const pageCount = Math.max(1, Math.ceil(total / options.perPage));
  const page = Math.min(Math.max(1, options.page), pageCount);
  const rows = await query
    .select(["id", "domain_name", "asking_price_cents", "created_at"])
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(options.perPage)
    .offset((page - 1) * options.perPage)
    .execute();
  return { rows, total, page, pageCount };
}

export interface NewDomainInput {
  domainName: string;
  askingPriceCents: number;
  trackingId: string;
  ownerEmail: string;
}

export async function insertDomain(input: NewDomainInput): Promise<Domain> {
  const timestamp = nowIso();
  return db
    .insertInto("domains")
    .values({
      domain_name: input.domainName,
      asking_price_cents: input.askingPriceCents,
      tracking_id: input.trackingId,
      owner_email: input.ownerEmail,
      created_at: timestamp,
      updated_at: timestamp,
      deleted_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}
