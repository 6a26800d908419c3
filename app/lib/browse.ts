// The home page's filters and sort (issue 24): read from the URL, written back into links. Pure, so the
// page cache keys a page on exactly what its loader reads (page-url.ts) and unit tests can read it.
import { dollarsToCents } from "./money";
import { MAX_SEARCH_LENGTH } from "./search";

export const SORTS = [
  { value: "newest", label: "Newest" },
  { value: "price-asc", label: "Price: low to high" },
  { value: "price-desc", label: "Price: high to low" },
  { value: "shortest", label: "Shortest first" },
  { value: "name", label: "Name A-Z" },
  { value: "views", label: "Most viewed" },
] as const;
export type Sort = (typeof SORTS)[number]["value"];

/** A name before its extension is at most 63 characters (a DNS label). */
export const MAX_NAME_LENGTH = 63;
const MAX_PRICE_CENTS = 1_000_000_000 * 100;
const MAX_PAGE = 1_000_000;
const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,58}[a-z0-9])?$/;
const EXTENSION = /^[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){0,3}$/;
/** A bad value is kept this long in the URL, so its note can name it and the key space stays small. */
const MAX_BAD_VALUE = 20;

export interface BrowseFilters {
  q: string;
  /** Lower case, without a leading dot: "com", "co.uk". */
  ext: string;
  minCents: number | null;
  maxCents: number | null;
  maxLength: number | null;
  noHyphens: boolean;
  noDigits: boolean;
  /** A category's slug. */
  category: string;
  sort: Sort;
}

export interface BrowseQuery {
  filters: BrowseFilters;
  page: number;
  /** Parameters whose value was ignored, with the value as given (cut short), for the page's notes. */
  ignored: Partial<Record<IgnorableParam, string>>;
}

export type IgnorableParam = "ext" | "min" | "max" | "len" | "cat" | "sort";

export const NO_FILTERS: BrowseFilters = {
  q: "",
  ext: "",
  minCents: null,
  maxCents: null,
  maxLength: null,
  noHyphens: false,
  noDigits: false,
  category: "",
  sort: "newest",
};

const price = (value: string): number | null => {
  const cents = dollarsToCents(value.replace(/,/g, ""));
  return cents !== null && cents <= MAX_PRICE_CENTS ? cents : null;
};

/** Reads the filters from a URL's parameters; a value that cannot be a filter is ignored and listed in `ignored`. */
export function readBrowseQuery(params: URLSearchParams): BrowseQuery {
  const ignored: BrowseQuery["ignored"] = {};
  const text = (name: string) => (params.get(name) ?? "").trim();
  const bad = (name: IgnorableParam, value: string) => {
    ignored[name] = value.slice(0, MAX_BAD_VALUE);
  };
  const filters: BrowseFilters = { ...NO_FILTERS, q: text("q").slice(0, MAX_SEARCH_LENGTH) };

  const ext = text("ext").toLowerCase().replace(/^\./, "");
  if (EXTENSION.test(ext)) filters.ext = ext;
  else if (ext) bad("ext", ext);

  const min = text("min");
  const max = text("max");
  const minCents = min ? price(min) : null;
  const maxCents = max ? price(max) : null;
  if (min && minCents === null) bad("min", min);
  if (max && maxCents === null) bad("max", max);
  if (minCents !== null && maxCents !== null && minCents > maxCents) {
    bad("min", min);
    bad("max", max);
  } else {
    filters.minCents = minCents;
    filters.maxCents = maxCents;
  }

  const len = text("len");
  if (/^\d{1,3}$/.test(len) && Number(len) >= 1 && Number(len) <= MAX_NAME_LENGTH) filters.maxLength = Number(len);
  else if (len) bad("len", len);

  filters.noHyphens = params.has("nohyphen") && text("nohyphen") !== "0";
  filters.noDigits = params.has("nodigit") && text("nodigit") !== "0";

  const category = text("cat").toLowerCase();
  if (SLUG.test(category)) filters.category = category;
  else if (category) bad("cat", category);

  const sort = text("sort");
  if (SORTS.some((option) => option.value === sort)) filters.sort = sort as Sort;
  else if (sort) bad("sort", sort);

  const page = Number(text("page"));
  return { filters, page: Number.isInteger(page) && page >= 1 && page <= MAX_PAGE ? page : 1, ignored };
}

/** The filters as URL parameters, in one order, defaults left out (so equal filters give equal URLs). */
export function browseParams(filters: BrowseFilters, page = 1, ignored: BrowseQuery["ignored"] = {}): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.q) params.set("q", filters.q);
  if (filters.ext) params.set("ext", filters.ext);
  else if (ignored.ext) params.set("ext", ignored.ext);
  if (filters.minCents !== null) params.set("min", centsParam(filters.minCents));
  else if (ignored.min) params.set("min", ignored.min);
  if (filters.maxCents !== null) params.set("max", centsParam(filters.maxCents));
  else if (ignored.max) params.set("max", ignored.max);
  if (filters.maxLength !== null) params.set("len", String(filters.maxLength));
  else if (ignored.len) params.set("len", ignored.len);
  if (filters.noHyphens) params.set("nohyphen", "1");
  if (filters.noDigits) params.set("nodigit", "1");
  if (filters.category) params.set("cat", filters.category);
  else if (ignored.cat) params.set("cat", ignored.cat);
  if (filters.sort !== "newest") params.set("sort", filters.sort);
  else if (ignored.sort) params.set("sort", ignored.sort);
  if (page > 1) params.set("page", String(page));
  return params;
}

/** "/?ext=io&page=2": the home page with these filters (and the values to note as ignored). */
export function browseHref(filters: BrowseFilters, page = 1, ignored: BrowseQuery["ignored"] = {}): string {
  const query = browseParams(filters, page, ignored).toString();
  return query ? `/?${query}` : "/";
}

function centsParam(cents: number): string {
  return cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2);
}

/** Whether anything narrows or reorders the list (a search included): such a page is not the home page. */
export function isFiltered(filters: BrowseFilters): boolean {
  return browseParams(filters).toString() !== "";
}

/** Whether the visitor asked for anything besides the plain list, a bad value included. */
export function asksForAnything(query: BrowseQuery): boolean {
  return isFiltered(query.filters) || Object.keys(query.ignored).length > 0;
}

const NOTES: Record<IgnorableParam, (value: string) => string> = {
  ext: (value) => `There is no extension ".${value}" here, so it was ignored.`,
  min: (value) => `"${value}" is not a usable min price, so it was ignored.`,
  max: (value) => `"${value}" is not a usable max price, so it was ignored.`,
  len: (value) => `"${value}" is not a length from 1 to ${MAX_NAME_LENGTH}, so it was ignored.`,
  cat: (value) => `There is no category "${value}", so it was ignored.`,
  sort: (value) => `"${value}" is not a sort order, so the newest come first.`,
};

/** One short sentence per ignored value; a min above the max is said once. */
export function ignoredNotes(ignored: BrowseQuery["ignored"]): string[] {
  const notes: string[] = [];
  const minAboveMax =
    ignored.min !== undefined &&
    ignored.max !== undefined &&
    price(ignored.min) !== null &&
    price(ignored.max) !== null;
  for (const [param, value] of Object.entries(ignored) as Array<[IgnorableParam, string]>) {
    if (minAboveMax && (param === "min" || param === "max")) continue;
    notes.push(NOTES[param](value));
  }
  if (minAboveMax) notes.unshift("The min price is above the max price, so both were ignored.");
  return notes;
}
