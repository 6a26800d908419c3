// How many live names a filter combination without a search term matches (the home page's "N names").
// Counted in SQL, a broad combination reads tens of thousands of index entries or rows at 100,000 names
// ("No hyphens" alone, a category with a price floor: 20-30 ms on either engine). Instead each process
// keeps a compact copy of the filter columns of the live names, read once per content version (one
// query for the names, one for their categories: about 100 ms at 100,000 names, shared by every
// combination until the content changes), and counts a combination by one pass over typed arrays
// (about a millisecond), and the same pass lists the ids when they are few. The extension menu's counts come
// from the copy too. A search term still counts in SQL: it matches the names and pitches, which
// this copy leaves out.
import type { BrowseFilters } from "../../lib/browse";
import { db } from "../db/database.server";
import { perContentVersion } from "../db/content-version.server";

const DIGIT = 1;
const HYPHEN = 2;

interface FilterColumns {
  size: number;
  id: Float64Array;
  /** Index into `extensions` per name. */
  extension: Uint32Array;
  extensions: Map<string, number>;
  priceCents: Float64Array;
  nameLength: Uint8Array;
  /** DIGIT | HYPHEN per name. */
  flags: Uint8Array;
  /** The positions of a category's live names. */
  categories: Map<number, Uint32Array>;
  /** The extensions with their counts, the most common first. */
  extensionCounts: ExtensionCount[];
}

export interface ExtensionCount {
  tld: string;
  count: number;
}

const filterColumns = perContentVersion<FilterColumns>(async () => {
  const [names, memberships] = await Promise.all([
    db
      .selectFrom("domains")
      .select(["id", "tld", "asking_price_cents", "name_length", "has_digit", "has_hyphen"])
      .where("deleted_at", "is", null)
      .execute(),
    db
      .selectFrom("domain_categories as dc")
      .innerJoin("domains as d", "d.id", "dc.domain_id")
      .where("d.deleted_at", "is", null)
      .select(["dc.category_id", "dc.domain_id"])
      .execute(),
  ]);
  const size = names.length;
  const columns: FilterColumns = {
    size,
    id: new Float64Array(size),
    extension: new Uint32Array(size),
    extensions: new Map(),
    priceCents: new Float64Array(size),
    nameLength: new Uint8Array(size),
    flags: new Uint8Array(size),
    categories: new Map(),
    extensionCounts: [],
  };
  const position = new Map<number, number>();
  names.forEach((row, at) => {
    position.set(Number(row.id), at);
    columns.id[at] = Number(row.id);
    let extension = columns.extensions.get(row.tld);
    if (extension === undefined) columns.extensions.set(row.tld, (extension = columns.extensions.size));
    columns.extension[at] = extension;
    columns.priceCents[at] = Number(row.asking_price_cents);
    columns.nameLength[at] = Math.min(255, Number(row.name_length));
    columns.flags[at] = (Number(row.has_digit) ? DIGIT : 0) | (Number(row.has_hyphen) ? HYPHEN : 0);
  });
  const members = new Map<number, number[]>();
  for (const row of memberships) {
    const at = position.get(Number(row.domain_id));
    if (at === undefined) continue; // deleted between the two reads: the next version reads both again
    const list = members.get(Number(row.category_id)) ?? [];
    list.push(at);
    members.set(Number(row.category_id), list);
  }
  for (const [category, list] of members) columns.categories.set(category, Uint32Array.from(list));
  const perExtension = new Uint32Array(columns.extensions.size);
  for (let at = 0; at < size; at++) perExtension[columns.extension[at]!]!++;
  columns.extensionCounts = [...columns.extensions]
    .map(([tld, index]) => ({ tld, count: perExtension[index]! }))
    .sort((a, b) => b.count - a.count || a.tld.localeCompare(b.tld));
  return columns;
});

/** Calls `found` with the position of each live name matching `filters` (whose `q` must be empty). */
async function eachMatch(
  filters: BrowseFilters,
  categoryId: number | null,
  found: (columns: FilterColumns, at: number) => void,
): Promise<void> {
  if (filters.q) throw new Error("browse-counts: a search term is matched in SQL");
  const columns = await filterColumns();
  const extension = filters.ext ? columns.extensions.get(filters.ext) : undefined;
  if (filters.ext && extension === undefined) return;
  const min = filters.minCents ?? -Infinity;
  const max = filters.maxCents ?? Infinity;
  const maxLength = filters.maxLength ?? Infinity;
  const refused = (filters.noDigits ? DIGIT : 0) | (filters.noHyphens ? HYPHEN : 0);
  const check = (at: number) => {
    if (
      (extension === undefined || columns.extension[at] === extension) &&
      columns.priceCents[at]! >= min &&
      columns.priceCents[at]! <= max &&
      columns.nameLength[at]! <= maxLength &&
      (columns.flags[at]! & refused) === 0
    )
      found(columns, at);
  };
  if (categoryId !== null) for (const at of columns.categories.get(categoryId) ?? []) check(at);
  else for (let at = 0; at < columns.size; at++) check(at);
}

export interface Matches {
  count: number;
  /** Their ids, when at most `maxIds` match; else null. */
  ids: number[] | null;
}

/**
 * The count the copy holds already when `filters` ask for one extension alone, one category alone or
 * nothing at all (the home page's first page): no pass over the names needed.
 */
function knownCount(columns: FilterColumns, filters: BrowseFilters, categoryId: number | null): number | undefined {
  const narrowed =
    filters.minCents !== null ||
    filters.maxCents !== null ||
    filters.maxLength !== null ||
    filters.noDigits ||
    filters.noHyphens;
  if (narrowed || (filters.ext && categoryId !== null)) return undefined;
  if (categoryId !== null) return columns.categories.get(categoryId)?.length ?? 0;
  if (filters.ext) return columns.extensionCounts.find((each) => each.tld === filters.ext)?.count ?? 0;
  return columns.size;
}

/** How many live names match `filters` (whose `q` must be empty), in category `categoryId` when given. */
export async function matchWithoutSearch(
  filters: BrowseFilters,
  categoryId: number | null,
  maxIds: number,
): Promise<Matches> {
  const known = knownCount(await filterColumns(), filters, categoryId);
  // Too many to list by id: the count is all the caller needs.
  if (known !== undefined && known > maxIds) return { count: known, ids: null };
  let count = 0;
  const ids: number[] = [];
  await eachMatch(filters, categoryId, (columns, at) => {
    if (++count <= maxIds) ids.push(columns.id[at]!);
  });
  return { count, ids: count <= maxIds ? ids : null };
}

/** The extensions of the live names with their counts, the most common first. */
export async function extensionCounts(): Promise<ExtensionCount[]> {
  return (await filterColumns()).extensionCounts;
}

/** How many names are live, from the same copy. */
export async function liveNameCount(): Promise<number> {
  return (await filterColumns()).size;
}
