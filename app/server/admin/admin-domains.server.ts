// The admin's view of the portfolio: stats and the paginated table, computed in SQL.
import { sql } from "kysely";
import type { Domain } from "../../../db/schema";
import type { DomainEntry, DomainOwner, DomainSort } from "../../lib/admin-forms";
import { cleanPitch, MAX_PITCH_LENGTH, parseCategoryList } from "../../lib/categories";
import { asciiSearchTerm } from "../../lib/domain-name";
import { MAX_SEARCH_LENGTH } from "../../lib/search";
import { nowIso } from "../runtime/clock.server";
import { db } from "../db/database.server";
import {
  idArray,
  idsFrom,
  indexedBy,
  inList,
  inTransaction,
  isUniqueViolation,
  likeOperator,
  newlineChar,
} from "../db/dialect.server";
import type { FunnelTotals } from "../../lib/funnel";
import { funnelSelections } from "../catalog/domain-funnel.server";
import { insertDomain, liveDomainTotals } from "../catalog/domains.server";
import { setDomainCategories } from "../catalog/categories.server";

export type AdminDomainRow = Pick<
  Domain,
  | "id"
  | "domain_name"
  | "asking_price_cents"
  | "inquiry_count"
  | "tracking_id"
  | "owner_email"
  | "created_at"
  | "sold_at"
> &
  FunnelTotals;

const ADMIN_COLUMNS = [
  "id",
  "domain_name",
  "asking_price_cents",
  "inquiry_count",
  "tracking_id",
  "owner_email",
  "created_at",
  "sold_at",
] as const;

export interface PortfolioStats {
  totalDomains: number;
  totalValueCents: number;
}

export async function portfolioStats(): Promise<PortfolioStats> {
  // Precomputed by triggers: counting and summing 100,000 rows per page view took tens of milliseconds.
  const totals = await liveDomainTotals();
  return { totalDomains: totals.count, totalValueCents: totals.valueCents };
}

function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (char) => `\\${char}`);
}

const FEW_MATCHES = 5000;

/** A live domain's searchable text, exactly as indexed by domains_live_search (migration 0110). */
const SEARCH_TEXT = sql<string>`(domain_name || ${newlineChar} || tracking_id || ${newlineChar} || coalesce(owner_email, ''))`;

/** The search text contains one of the patterns (a term as typed, and its ASCII form). */
function matchesAny(patterns: string[]) {
  return sql<boolean>`(${sql.join(
    patterns.map((pattern) => sql`${SEARCH_TEXT} ${likeOperator} ${pattern} ESCAPE '\\'`),
    sql` OR `,
  )})`;
}

/**
 * Name, tracking ID or owner email "contains": how many live domains match and, when they are few, their
 * ids, from one pass over the matches (SQLite scans a narrow index, not the table; PostgreSQL reads the
 * trigram index of migration 0130, then checks each match in the table). A first query limited to the
 * few and a count after it read the first 5,000 matches twice whenever there were more.
 */
async function searchMatches(patterns: string[]): Promise<{ total: number; ids: number[] | null }> {
  const { rows } = await sql<{ n: number | string; ids: unknown }>`
    SELECT count(*) AS n, CASE WHEN count(*) <= ${sql.lit(FEW_MATCHES)} THEN ${idArray("id")} END AS ids
    FROM domains ${indexedBy("domains_live_search")} WHERE deleted_at IS NULL AND ${matchesAny(patterns)}`.execute(db);
  const total = Number(rows[0]!.n);
  return { total, ids: total <= FEW_MATCHES ? idsFrom(rows[0]!.ids) : null };
}

/**
 * The LIKE patterns for a search term: as typed (tracking IDs) and, when it differs, with names and
 * email domains in the ASCII form they are stored in ("münchen" and "jo@münchen" as "xn--mnchen-3ya").
 */
function searchPatterns(term: string): string[] {
  const at = term.lastIndexOf("@");
  const ascii = at < 0 ? asciiSearchTerm(term) : `${term.slice(0, at + 1)}${asciiSearchTerm(term.slice(at + 1))}`;
  const contains = (text: string) => `%${escapeLike(text)}%`;
  return ascii === term ? [contains(term)] : [contains(term), contains(ascii)];
}

type SortColumn = "created_at" | "asking_price_cents" | "views" | "inquiries_started" | "inquiry_count";

const ORDER: Record<DomainSort, [column: SortColumn, direction: "asc" | "desc"]> = {
  newest: ["created_at", "desc"],
  oldest: ["created_at", "asc"],
  "price-desc": ["asking_price_cents", "desc"],
  "price-asc": ["asking_price_cents", "asc"],
  "views-desc": ["views", "desc"],
  "started-desc": ["inquiries_started", "desc"],
  "paid-desc": ["inquiry_count", "desc"],
};

export interface AdminDomainPage {
  rows: AdminDomainRow[];
  total: number;
  page: number;
  pageCount: number;
}

/**
 * The admin table: the live domains and the sold ones (marked Sold; a delisted name is not shown), with a
 * search (name, tracking ID or owner email contains), a sort and one page of `perPage`.
 */
export async function listAdminDomains(options: {
  search: string;
  sort: DomainSort;
  page: number;
  perPage: number;
  /** The live-domain count when the caller already has it (the stat cards). */
  liveTotal?: number;
}): Promise<AdminDomainPage> {
  // Names are stored in their ASCII form: "münchen" is looked for as "xn--mnchen-3ya".
  // Control characters never match: they also keep a term from spanning two of the joined columns.
  const term = options.search
    .replace(/[\x00-\x1f]/g, "")
    .trim()
    .toLowerCase()
    .slice(0, MAX_SEARCH_LENGTH);
  let live = db.selectFrom("domains").where("deleted_at", "is", null);
  // Sold names have deleted_at set too: found by their own small index (migration 0245).
  let sold = db.selectFrom("domains").where("sold_at", "is not", null);
  let liveTotal = options.liveTotal ?? (await portfolioStats()).totalDomains;
  if (term) {
    const patterns = searchPatterns(term);
    const matches = await searchMatches(patterns);
    liveTotal = matches.total;
    // Few matches: fetch them by id and sort them. Many: walk the sort index and stop after one page.
    live = live.where(matches.ids ? inList("id", matches.ids) : matchesAny(patterns));
    sold = sold.where(matchesAny(patterns));
  }
  const [column, direction] = ORDER[options.sort];
  const soldKeys = await sold.select(SORT_KEYS).select(funnelKey(column)).execute();
  const total = liveTotal + soldKeys.length;
  const pageCount = Math.max(1, Math.ceil(total / options.perPage));
  const page = Math.min(Math.max(1, options.page), pageCount);
  const offset = (page - 1) * options.perPage;
  if (soldKeys.length === 0) {
    const rows = await live
      .select(ADMIN_COLUMNS)
      .select(funnelSelections)
      .orderBy(column, direction)
      .orderBy("id", direction)
      .limit(options.perPage)
      .offset(offset)
      .execute();
    return { rows, total, page, pageCount };
  }
  // Sold names are few: the page is the live names around it, merged with them in the same order.
  const compare = compareRows(column, direction);
  const before = Math.max(0, offset - soldKeys.length);
  const liveKeys = await live
    .select(SORT_KEYS)
    .select(funnelKey(column))
    .orderBy(column, direction)
    .orderBy("id", direction)
    .limit(options.perPage + soldKeys.length)
    .offset(before)
    .execute();
  const ids = mergedPage(liveKeys, soldKeys.sort(compare), compare, {
    liveOffset: before,
    offset,
    perPage: options.perPage,
  });
  if (ids.length === 0) return { rows: [], total, page, pageCount };
  const found = await db
    .selectFrom("domains")
    .select(ADMIN_COLUMNS)
    .select(funnelSelections)
    .where(inList("id", ids))
    .execute();
  const byId = new Map(found.map((row) => [row.id, row]));
  return { rows: ids.flatMap((id) => byId.get(id) ?? []), total, page, pageCount };
}

/** What a page of the admin table is sorted by, besides a funnel count. */
const SORT_KEYS = ["id", "created_at", "asking_price_cents", "inquiry_count"] as const;
type SortKeys = { id: number } & Partial<Record<SortColumn, string | number>>;

/** The funnel count a sort needs (views, inquiries started), or none. */
function funnelKey(column: SortColumn): Array<(typeof funnelSelections)[number]> {
  if (column === "views") return [funnelSelections[0]];
  if (column === "inquiries_started") return [funnelSelections[1]];
  return [];
}

/** The table's order (ORDER: the column, then the id the same way), as SQL sorts it. */
function compareRows(column: SortColumn, direction: "asc" | "desc") {
  const sign = direction === "asc" ? 1 : -1;
  return (a: SortKeys, b: SortKeys): number => {
    const [x, y] = [a[column], b[column]];
    const byKey =
      column === "created_at" ? (String(x) < String(y) ? -1 : String(x) > String(y) ? 1 : 0) : Number(x) - Number(y);
    return sign * (byKey === 0 ? Number(a.id) - Number(b.id) : Math.sign(byKey));
  };
}

/**
 * The ids of one page of live and sold names in the table's order. `live` are the live names from
 * position `liveOffset` (offset less the sold count, or 0), at most perPage + sold.length of them, so the
 * page's live names are among them. A sold name sorting before the first of them when liveOffset > 0 is
 * before the page (at most liveOffset live and its fellows before it); merged with the rest, they are the
 * table from position liveOffset plus those, and a sold name after the last live one never reaches the
 * page's end.
 */
function mergedPage(
  live: SortKeys[],
  sold: SortKeys[],
  compare: (a: SortKeys, b: SortKeys) => number,
  at: { liveOffset: number; offset: number; perPage: number },
): number[] {
  const first = live[0];
  const before = at.liveOffset > 0 && first ? sold.filter((row) => compare(row, first) < 0).length : 0;
  const merged = [...live, ...sold.slice(before)].sort(compare);
  const from = at.offset - (at.liveOffset + before);
  return merged.slice(from, from + at.perPage).map((row) => Number(row.id));
}

export async function findLiveDomainById(id: number): Promise<AdminDomainRow | undefined> {
  return db
    .selectFrom("domains")
    .select(ADMIN_COLUMNS)
    .select(funnelSelections)
    .where("id", "=", id)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
}

/** True when a live domain with that id was updated. */
export async function updateDomainPrice(id: number, askingPriceCents: number): Promise<boolean> {
  const result = await db
    .updateTable("domains")
    .set({ asking_price_cents: askingPriceCents, updated_at: nowIso() })
    .where("id", "=", id)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Sets or clears (null) a live domain's buy now price, unless it would be below the name's minimum offer
 * (checked in the update itself, so a minimum offer saved meanwhile is never undercut).
 */
export async function setBuyNowPrice(
  id: number,
  cents: number | null,
): Promise<"saved" | "not-found" | { belowMinOfferCents: number }> {
  const result = await db
    .updateTable("domains")
    .set({ buy_now_cents: cents, updated_at: nowIso() })
    .where("id", "=", id)
    .where("deleted_at", "is", null)
    .$if(cents !== null, (query) =>
      query.where((eb) => eb.or([eb("min_offer_cents", "is", null), eb("min_offer_cents", "<=", cents!)])),
    )
    .executeTakeFirst();
  if (result.numUpdatedRows > 0n) return "saved";
  const row = await db
    .selectFrom("domains")
    .select("min_offer_cents")
    .where("id", "=", id)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  if (!row) return "not-found";
  return row.min_offer_cents === null ? setBuyNowPrice(id, cents) : { belowMinOfferCents: Number(row.min_offer_cents) };
}

/**
 * Sets a live domain's owner email and tracking ID; false when there is no such domain. Inquiries paid
 * before keep the owner they were sent to (inquiries.owner_email); the next ones go to the new owner.
 */
export async function updateDomainOwner(id: number, owner: DomainOwner): Promise<boolean> {
  const result = await db
    .updateTable("domains")
    .set({ owner_email: owner.ownerEmail, tracking_id: owner.trackingId, updated_at: nowIso() })
    .where("id", "=", id)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Soft delete: the row stays so paid inquiries keep their domain; the name becomes free again. */
export async function softDeleteDomain(id: number): Promise<boolean> {
  const timestamp = nowIso();
  const result = await db
    .updateTable("domains")
    .set({ deleted_at: timestamp, updated_at: timestamp })
    .where("id", "=", id)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export class DomainExistsError extends Error {}

/** Adds a domain; a live duplicate name throws DomainExistsError with a message a person understands. */
export async function addDomain(entry: DomainEntry): Promise<Domain> {
  try {
    return await inTransaction(async (trx) => {
      const domain = await insertDomain(
        {
          domainName: entry.domainName,
          askingPriceCents: entry.askingPrice,
          trackingId: entry.trackingId,
          ownerEmail: entry.ownerEmail,
          pitch: entry.pitch,
          buyNowCents: entry.buyNowPrice,
        },
        trx,
      );
      await setDomainCategories(trx, domain.id, entry.categories);
      return domain;
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new DomainExistsError(`${entry.domainName} is already in your portfolio.`);
    }
    throw error;
  }
}

/** The edit form's listing fields (categories, pitch), or the reason they cannot be saved. */
export async function saveListing(
  id: number,
  values: { categories: string; pitch: string },
): Promise<"saved" | "not-found" | { error: string; values: typeof values }> {
  const categories = parseCategoryList(values.categories);
  if ("error" in categories) return { error: categories.error, values };
  const pitch = cleanPitch(values.pitch);
  if (pitch !== null && [...pitch].length > MAX_PITCH_LENGTH)
    return { error: `The pitch is longer than ${MAX_PITCH_LENGTH} characters`, values };
  return inTransaction(async (trx) => {
    const live = await trx
      .updateTable("domains")
      .set({ pitch, updated_at: nowIso() })
      .where("id", "=", id)
      .where("deleted_at", "is", null)
      .returning("id")
      .executeTakeFirst();
    if (!live) return "not-found" as const;
    await setDomainCategories(trx, id, categories);
    return "saved" as const;
  });
}
