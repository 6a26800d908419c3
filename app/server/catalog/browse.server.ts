// The home page's list: live domains filtered and sorted as browse.ts reads them from the URL, a page at a
// time, and the counts its filter offers. Every filter is an index seek (migration 0160); the counts per
// extension change only when the content does, so they are counted once per content version.
import { sql, type SelectQueryBuilder } from "kysely";
import type { Database as Schema } from "../../../db/schema";
import type { BrowseFilters } from "../../lib/browse";
import { asciiSearchTerm } from "../../lib/domain-name";
import { MAX_SEARCH_LENGTH } from "../../lib/search";
import { db } from "../db/database.server";
import { currentContentVersion } from "../db/content-version.server";
import { liveDomainTotals, type DomainPage, type PublicDomain } from "./domains.server";

type LiveQuery = SelectQueryBuilder<Schema, "domains", object>;

function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/** What the page lists of a domain. */
export type BrowseRow = PublicDomain;

/** The filters of `filters` (all but the sort) on live domains. `categoryId` is the category's, looked up by slug. */
function filtered(filters: BrowseFilters, categoryId: number | null): LiveQuery {
  let query: LiveQuery = db.selectFrom("domains").where("domains.deleted_at", "is", null);
  // Names are stored in their ASCII form: "münchen" is looked for as "xn--mnchen-3ya".
  const term = asciiSearchTerm(filters.q.trim().toLowerCase().slice(0, MAX_SEARCH_LENGTH));
  if (term) {
    // The pitch is searched as typed (lower-cased: it is free text), the name in its ASCII form.
    const pitchTerm = filters.q.trim().toLowerCase().slice(0, MAX_SEARCH_LENGTH);
    query = query.where(sql<boolean>`(domains.domain_name LIKE ${`%${escapeLike(term)}%`} ESCAPE '\\'
      OR lower(domains.pitch) LIKE ${`%${escapeLike(pitchTerm)}%`} ESCAPE '\\')`);
  }
  if (filters.ext) query = query.where("domains.tld", "=", filters.ext);
  if (filters.minCents !== null) query = query.where("domains.asking_price_cents", ">=", filters.minCents);
  if (filters.maxCents !== null) query = query.where("domains.asking_price_cents", "<=", filters.maxCents);
  if (filters.maxLength !== null) query = query.where("domains.name_length", "<=", filters.maxLength);
  if (filters.noDigits) query = query.where("domains.has_digit", "=", 0);
  if (filters.noHyphens) query = query.where("domains.has_hyphen", "=", 0);
  if (categoryId !== null) {
    // A probe of (domain_id, category_id) per name read in the sort's index order: a page stops after its
    // rows. With only a category, the count is the category's (categoryCounts), never counted here.
    query = query.where(sql<boolean>`EXISTS (SELECT 1 FROM domain_categories dc
      WHERE dc.domain_id = domains.id AND dc.category_id = ${categoryId})`);
  }
  return query;
}

function sorted(query: LiveQuery, sort: BrowseFilters["sort"]) {
  const rows = query.select(["domains.id", "domains.domain_name", "domains.asking_price_cents", "domains.created_at"]);
  switch (sort) {
    case "price-asc":
      return rows.orderBy("domains.asking_price_cents", "asc").orderBy("domains.id", "asc");
    case "price-desc":
      return rows.orderBy("domains.asking_price_cents", "desc").orderBy("domains.id", "desc");
    case "shortest":
      return rows.orderBy("domains.name_length", "asc").orderBy("domains.domain_name", "asc");
    case "name":
      return rows.orderBy("domains.domain_name", "asc");
    default:
      return rows.orderBy("domains.created_at", "desc").orderBy("domains.id", "desc");
  }
}

/** One page of live domains matching `filters`, in their order; the page is clamped to the last one. */
export async function browseDomains(
  filters: BrowseFilters,
  options: {
    page: number;
    perPage: number;
    categoryId?: number | null;
    categoryCount?: number;
    extensionCount?: number;
  },
): Promise<DomainPage<BrowseRow>> {
  const categoryId = options.categoryId ?? null;
  const query = filtered(filters, categoryId);
  const others =
    Boolean(filters.q) ||
    filters.minCents !== null ||
    filters.maxCents !== null ||
    filters.maxLength !== null ||
    filters.noDigits ||
    filters.noHyphens;
  // One extension or one category alone: its count is known already (counted once per content version).
  const known =
    others || (filters.ext && categoryId !== null)
      ? undefined
      : filters.ext
        ? options.extensionCount
        : categoryId !== null
          ? options.categoryCount
          : (await liveDomainTotals()).count;
  const total =
    known ?? Number((await query.select((eb) => eb.fn.countAll<number>().as("total")).executeTakeFirstOrThrow()).total);
  const pageCount = Math.max(1, Math.ceil(total / options.perPage));
  const page = Math.min(Math.max(1, options.page), pageCount);
  const offset = (page - 1) * options.perPage;
  const rows =
    total === 0
      ? []
      : filters.sort === "views"
        ? await mostViewed(query, offset, options.perPage)
        : await sorted(query, filters.sort).limit(options.perPage).offset(offset).execute();
  return { rows, total, page, pageCount };
}

const viewedFirst = (query: LiveQuery) => query.innerJoin("domain_view_totals as v", "v.domain_id", "domains.id");

/**
 * "Most viewed": the viewed names by their views (read in the order of the index on domain_view_totals,
 * so a page stops after its rows instead of sorting every name), then the others newest first.
 * The viewed ones are counted only when a page reaches past them.
 */
async function mostViewed(query: LiveQuery, offset: number, limit: number): Promise<BrowseRow[]> {
  const columns = ["domains.id", "domains.domain_name", "domains.asking_price_cents", "domains.created_at"] as const;
  const viewed = await viewedFirst(query)
    .select(columns)
    .orderBy("v.views", "desc")
    .orderBy("v.domain_id", "desc")
    .limit(limit)
    .offset(offset)
    .execute();
  if (viewed.length === limit) return viewed;
  const viewedCount =
    viewed.length > 0
      ? offset + viewed.length
      : Number(
          (
            await viewedFirst(query)
              .select((eb) => eb.fn.countAll<number>().as("n"))
              .executeTakeFirstOrThrow()
          ).n,
        );
  const unviewed = await sorted(
    query.where(sql<boolean>`NOT EXISTS (SELECT 1 FROM domain_view_totals nv WHERE nv.domain_id = domains.id)`),
    "newest",
  )
    .limit(limit - viewed.length)
    .offset(Math.max(0, offset - viewedCount))
    .execute();
  return [...viewed, ...unviewed];
}

/** A value computed from the content, recomputed when the content version (db/content-version.server.ts) moves on. */
export function perContentVersion<T>(load: () => Promise<T>): () => Promise<T> {
  let cached: { version: number; value: Promise<T> } | undefined;
  return async () => {
    const version = await currentContentVersion();
    if (cached?.version !== version) {
      const value = load();
      cached = { version, value };
      value.catch(() => {
        if (cached?.value === value) cached = undefined;
      });
    }
    return cached.value;
  };
}

export interface ExtensionCount {
  tld: string;
  count: number;
}

/** The extensions of the live domains with their counts, the most common first. */
export const extensionCounts = perContentVersion<ExtensionCount[]>(async () => {
  const rows = await db
    .selectFrom("domains")
    .select(["tld", (eb) => eb.fn.countAll<number>().as("count")])
    .where("deleted_at", "is", null)
    .groupBy("tld")
    .execute();
  return rows
    .map((row) => ({ tld: row.tld, count: Number(row.count) }))
    .sort((a, b) => b.count - a.count || a.tld.localeCompare(b.tld));
});

/** The statements a page of `filters` runs (the count and the rows; "Most viewed" as its first read), for the bench's query plans. */
export function browseStatements(filters: BrowseFilters, categoryId: number | null, perPage: number) {
  const query = filtered(filters, categoryId);
  const rows =
    filters.sort === "views"
      ? viewedFirst(query)
          .select(["domains.id"])
          .orderBy("v.views", "desc")
          .orderBy("v.domain_id", "desc")
          .limit(perPage)
      : sorted(query, filters.sort).limit(perPage);
  return { count: query.select((eb) => eb.fn.countAll<number>().as("total")).compile(), rows: rows.compile() };
}
