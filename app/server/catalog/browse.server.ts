// The home page's list: live domains filtered and sorted as browse.ts reads them from the URL, a page at a
// time. A combination without a search term is counted from a copy of the filter columns kept per content
// version (browse-counts.server.ts), which also gives the extension menu its counts.
import { sql, type RawBuilder, type SelectQueryBuilder } from "kysely";
import type { Database as Schema } from "../../../db/schema";
import type { BrowseFilters } from "../../lib/browse";
import { asciiSearchTerm } from "../../lib/domain-name";
import { MAX_SEARCH_LENGTH } from "../../lib/search";
import { db } from "../db/database.server";
import { liveNameCount, matchWithoutSearch, type Matches } from "./browse-counts.server";
import type { DomainPage, PublicDomain } from "./domains.server";

export { extensionCounts, type ExtensionCount } from "./browse-counts.server";

type LiveQuery = SelectQueryBuilder<Schema, "domains", object>;

function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/** What the page lists of a domain. */
export type BrowseRow = PublicDomain;

/**
 * The filters of `filters` (all but the sort) on live domains, as SQL. `categoryId` is the category's, looked up
 * by slug. Unless the plan is "planner" (see `Plan`), the names are read in the sort's index order or by id, and
 * each is checked against the filters: the filter columns are then written so that no index on them applies
 * (`+column`, `column || ''`), since the planners cannot know that "no digits" keeps half the names and would
 * read and sort all of them.
 */
function conditions(filters: BrowseFilters, categoryId: number | null, plan: Plan): RawBuilder<boolean> {
  const all: RawBuilder<unknown>[] = [sql`domains.deleted_at IS NULL`];
  // The listed ids come first; the filters still apply (the ids are of the content version's copy).
  if (Array.isArray(plan)) all.push(sql`domains.id IN (${sql.join(plan)})`);
  const byFilterIndex = plan === "planner";
  const number = (column: "asking_price_cents" | "name_length" | "has_digit" | "has_hyphen") =>
    byFilterIndex ? sql`domains.${sql.ref(column)}` : sql`+domains.${sql.ref(column)}`;
  // Names are stored in their ASCII form: "münchen" is looked for as "xn--mnchen-3ya".
  const term = asciiSearchTerm(filters.q.trim().toLowerCase().slice(0, MAX_SEARCH_LENGTH));
  if (term) {
    // The pitch is searched as typed (lower-cased: it is free text), the name in its ASCII form.
    const pitchTerm = filters.q.trim().toLowerCase().slice(0, MAX_SEARCH_LENGTH);
    all.push(sql`(domains.domain_name LIKE ${`%${escapeLike(term)}%`} ESCAPE '\\'
      OR lower(domains.pitch) LIKE ${`%${escapeLike(pitchTerm)}%`} ESCAPE '\\')`);
  }
  if (filters.ext)
    all.push(byFilterIndex ? sql`domains.tld = ${filters.ext}` : sql`domains.tld || '' = ${filters.ext}`);
  if (filters.minCents !== null) all.push(sql`${number("asking_price_cents")} >= ${filters.minCents}`);
  if (filters.maxCents !== null) all.push(sql`${number("asking_price_cents")} <= ${filters.maxCents}`);
  if (filters.maxLength !== null) all.push(sql`${number("name_length")} <= ${filters.maxLength}`);
  if (filters.noDigits) all.push(sql`${number("has_digit")} = 0`);
  if (filters.noHyphens) all.push(sql`${number("has_hyphen")} = 0`);
  if (categoryId !== null) {
    // By the filter's index the category's names are read first; else a probe of (domain_id, category_id)
    // per name read.
    all.push(
      !byFilterIndex
        ? sql`EXISTS (SELECT 1 FROM domain_categories dc WHERE dc.domain_id = domains.id AND dc.category_id = ${categoryId})`
        : sql`domains.id IN (SELECT dc.domain_id FROM domain_categories dc WHERE dc.category_id = ${categoryId})`,
    );
  }
  return sql<boolean>`${sql.join(all, sql` AND `)}`;
}

function filtered(filters: BrowseFilters, categoryId: number | null, plan: Plan = "planner"): LiveQuery {
  return db.selectFrom("domains").where(conditions(filters, categoryId, plan));
}

/**
 * The viewed names matching `filters`. In sort order, read from domain_view_totals' index by views, each
 * name then looked up (CROSS JOIN keeps SQLite to that order; PostgreSQL plans it as an inner join).
 */
function viewedFirst(filters: BrowseFilters, categoryId: number | null, plan: Plan) {
  const where = conditions(filters, categoryId, plan);
  return plan === "sort-order"
    ? db
        .selectFrom("domain_view_totals as v")
        .crossJoin("domains")
        .whereRef("domains.id", "=", "v.domain_id")
        .where(where)
    : db.selectFrom("domains").innerJoin("domain_view_totals as v", "v.domain_id", "domains.id").where(where);
}

/** Up to this many matching ids are read by id (the "few" of `Plan`). */
const MAX_LISTED_IDS = 5000;

const counted = (filters: BrowseFilters, categoryId: number | null) =>
  filtered(filters, categoryId).select((eb) => eb.fn.countAll<number>().as("total"));

/** The live names matching `filters`: with a search term counted by the database, else from the copy (browse-counts.server.ts). */
async function matching(filters: BrowseFilters, categoryId: number | null): Promise<Matches> {
  if (!filters.q) return matchWithoutSearch(filters, categoryId, MAX_LISTED_IDS);
  return { count: Number((await counted(filters, categoryId).executeTakeFirstOrThrow()).total), ids: null };
}

/**
 * How a page's rows are read:
 * - "sort-order" when the names matching are many, so that reading the sort's index up to the page's last
 *   row (about (offset + limit) * live / total names) costs less than reading every match and sorting them
 *   (see `conditions`);
 * - the matching ids, from the copy of the filter columns, when they are few and there is no search term
 *   (the planners cannot estimate "length at most 8 in .com" and would read every .com name);
 * - else "planner": the database picks the filter's index.
 */
type Plan = "sort-order" | "planner" | number[];

async function choosePlan(matches: Matches, offset: number, limit: number): Promise<Plan> {
  if ((offset + limit) * (await liveNameCount()) <= matches.count * matches.count) return "sort-order";
  return matches.ids ?? "planner";
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
  options: { page: number; perPage: number; categoryId?: number | null },
): Promise<DomainPage<BrowseRow>> {
  const categoryId = options.categoryId ?? null;
  const matches = await matching(filters, categoryId);
  const total = matches.count;
  const pageCount = Math.max(1, Math.ceil(total / options.perPage));
  const page = Math.min(Math.max(1, options.page), pageCount);
  const offset = (page - 1) * options.perPage;
  const plan = await choosePlan(matches, offset, options.perPage);
  const rows =
    total === 0
      ? []
      : filters.sort === "views"
        ? await mostViewed(filters, categoryId, plan, offset, options.perPage)
        : await sorted(filtered(filters, categoryId, plan), filters.sort)
            .limit(options.perPage)
            .offset(offset)
            .execute();
  return { rows, total, page, pageCount };
}

/**
 * "Most viewed": the viewed names by their views (read in the order of the index on domain_view_totals,
 * so a page stops after its rows instead of sorting every name), then the others newest first.
 * The viewed ones are counted only when a page reaches past them.
 */
async function mostViewed(
  filters: BrowseFilters,
  categoryId: number | null,
  plan: Plan,
  offset: number,
  limit: number,
): Promise<BrowseRow[]> {
  const columns = ["domains.id", "domains.domain_name", "domains.asking_price_cents", "domains.created_at"] as const;
  const viewed = await viewedFirst(filters, categoryId, plan)
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
            await viewedFirst(filters, categoryId, plan === "sort-order" ? "planner" : plan)
              .select((eb) => eb.fn.countAll<number>().as("n"))
              .executeTakeFirstOrThrow()
          ).n,
        );
  const unviewed = await sorted(
    filtered(filters, categoryId, plan).where(
      sql<boolean>`NOT EXISTS (SELECT 1 FROM domain_view_totals nv WHERE nv.domain_id = domains.id)`,
    ),
    "newest",
  )
    .limit(limit - viewed.length)
    .offset(Math.max(0, offset - viewedCount))
    .execute();
  return [...viewed, ...unviewed];
}

/** The statements the first page of `filters` runs (the count with a search term, and the rows; "Most viewed" as its first read), for the bench's query plans. */
export async function browseStatements(filters: BrowseFilters, categoryId: number | null, perPage: number) {
  const plan = await choosePlan(await matching(filters, categoryId), 0, perPage);
  const rows =
    filters.sort === "views"
      ? viewedFirst(filters, categoryId, plan)
          .select(["domains.id"])
          .orderBy("v.views", "desc")
          .orderBy("v.domain_id", "desc")
          .limit(perPage)
      : sorted(filtered(filters, categoryId, plan), filters.sort).limit(perPage);
  // Without a search term the count comes from browse-counts.server.ts, not from SQL.
  return { ...(filters.q ? { count: counted(filters, categoryId).compile() } : {}), rows: rows.compile() };
}
