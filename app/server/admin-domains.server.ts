// The admin's view of the portfolio: stats and the paginated table, computed in SQL.
import { sql } from "kysely";
import type { Domain } from "../../db/schema";
import type { DomainEntry, DomainSort } from "../lib/admin-forms";
import { asciiSearchTerm } from "../lib/domain-name";
import { MAX_SEARCH_LENGTH } from "../lib/search";
import { nowIso } from "./clock.server";
import { db, lazyStatement } from "./db.server";
import type { FunnelTotals } from "../lib/funnel";
import { funnelSelections } from "./domain-funnel.server";
import { insertDomain, liveDomainTotals } from "./domains.server";

export type AdminDomainRow = Pick<
  Domain,
  "id" | "domain_name" | "asking_price_cents" | "inquiry_count" | "tracking_id" | "owner_email" | "created_at"
> &
  FunnelTotals;

export interface PortfolioStats {
  totalDomains: number;
  totalValueCents: number;
}

export function portfolioStats(): PortfolioStats {
  // Precomputed by triggers: counting and summing 100,000 rows per page view took tens of milliseconds.
  const totals = liveDomainTotals();
  return { totalDomains: totals.count, totalValueCents: totals.valueCents };
}

function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (char) => `\\${char}`);
}

const FEW_MATCHES = 5000;

/** "Name contains": a scan of the narrow name index, not of the table. */
const matchingIds = lazyStatement<[string], number>(
  "SELECT id FROM domains INDEXED BY domains_live_name WHERE deleted_at IS NULL AND domain_name LIKE ? ESCAPE '\\'",
);

const ORDER: Record<
  DomainSort,
  [column: "created_at" | "asking_price_cents" | "views" | "inquiries_started" | "inquiry_count", direction: "asc" | "desc"]
> = {
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

/** Live domains for the admin table: search (name contains), sort and one page of `perPage`. */
export async function listAdminDomains(options: {
  search: string;
  sort: DomainSort;
  page: number;
  perPage: number;
  /** The live-domain count when the caller already has it (the stat cards). */
  liveTotal?: number;
}): Promise<AdminDomainPage> {
  // Names are stored in their ASCII form: "münchen" is looked for as "xn--mnchen-3ya".
  const term = asciiSearchTerm(options.search.trim().toLowerCase().slice(0, MAX_SEARCH_LENGTH));
  let query = db.selectFrom("domains").where("deleted_at", "is", null);
  let total = options.liveTotal ?? portfolioStats().totalDomains;
  if (term) {
    const pattern = `%${escapeLike(term)}%`;
    // One scan of the narrow name index gives both the count and, when they are few, the ids.
    const ids = matchingIds().pluck().all(pattern);
    total = ids.length;
    // Few matches: fetch them by id and sort them. Many: walk the sort index and stop after one page.
    query = query.where(
      total <= FEW_MATCHES ? sql<boolean>`id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))` : sql<boolean>`domain_name LIKE ${pattern} ESCAPE '\\'`,
    );
  }
  const pageCount = Math.max(1, Math.ceil(total / options.perPage));
  const page = Math.min(Math.max(1, options.page), pageCount);
  const [column, direction] = ORDER[options.sort];
  const rows = await query
    .select(["id", "domain_name", "asking_price_cents", "inquiry_count", "tracking_id", "owner_email", "created_at"])
    .select(funnelSelections)
    .orderBy(column, direction)
    .orderBy("id", direction)
    .limit(options.perPage)
    .offset((page - 1) * options.perPage)
    .execute();
  return { rows, total, page, pageCount };
}

export async function findLiveDomainById(id: number): Promise<AdminDomainRow | undefined> {
  return db
    .selectFrom("domains")
    .select(["id", "domain_name", "asking_price_cents", "inquiry_count", "tracking_id", "owner_email", "created_at"])
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
    return await insertDomain({
      domainName: entry.domainName,
      askingPriceCents: entry.askingPrice,
      trackingId: entry.trackingId,
      ownerEmail: entry.ownerEmail,
    });
  } catch (error) {
    if (/UNIQUE constraint failed/.test((error as Error).message)) {
      throw new DomainExistsError(`${entry.domainName} is already in your portfolio.`);
    }
    throw error;
  }
}
