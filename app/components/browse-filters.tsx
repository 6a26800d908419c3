import { Form, Link } from "react-router";
import { browseHref, MAX_NAME_LENGTH, SORTS, type BrowseFilters } from "../lib/browse";
import { MAX_SEARCH_LENGTH } from "../lib/search";
import { fieldClass, fieldHeight, inputClass, primaryButton } from "./ui";

export interface FacetOption {
  value: string;
  label: string;
  count: number;
}

const fieldLabel = "block text-sm font-medium text-slate-200";
const selectClass = `${inputClass} ${fieldHeight} min-w-0`;

/**
 * The search box, the filters and the sort in one GET form: the URL it makes is shareable and cached, and
 * it works without JavaScript. Keyed by the filters so a client-side navigation shows the new values.
 */
export function BrowseFilterForm({
  filters,
  extensions,
  categories,
}: {
  filters: BrowseFilters;
  extensions: FacetOption[];
  categories: FacetOption[];
}) {
  const dollars = (cents: number | null) => (cents === null ? "" : String(cents / 100));
  return (
    <Form
      key={browseHref(filters)}
      method="get"
      role="search"
      action="/#domains"
      aria-label="Find a name"
      className="mt-6"
    >
      <div className="flex gap-2">
        <label htmlFor="q" className="sr-only">
          Search domains
        </label>
        <input
          id="q"
          name="q"
          type="search"
          defaultValue={filters.q}
          maxLength={MAX_SEARCH_LENGTH}
          placeholder="Search domains"
          className={`${fieldClass} min-w-0 flex-1`}
        />
        <button type="submit" className={primaryButton}>
          Search
        </button>
      </div>
      <div className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
        <FacetSelect id="ext" label="Extension" value={filters.ext} options={extensions} />
        <NumberFilter id="min" label="Min price" kind="dollars" value={dollars(filters.minCents)} />
        <NumberFilter id="max" label="Max price" kind="dollars" value={dollars(filters.maxCents)} />
        <NumberFilter id="len" label="Max length" kind="length" value={filters.maxLength ?? ""} />
        {categories.length > 0 ? (
          <FacetSelect id="cat" label="Category" value={filters.category} options={categories} />
        ) : null}
        <div className="min-w-0">
          <label htmlFor="sort" className={fieldLabel}>
            Sort by
          </label>
          <select id="sort" name="sort" defaultValue={filters.sort} className={selectClass}>
            {SORTS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="mt-3 flex flex-wrap items-center gap-x-6 gap-y-2">
        <Checkbox id="nohyphen" label="No hyphens" checked={filters.noHyphens} />
        <Checkbox id="nodigit" label="No digits" checked={filters.noDigits} />
        <Link to="/#domains" className="text-sm text-blue-300 underline hover:text-blue-200 sm:ml-auto">
          Clear filters
        </Link>
      </div>
    </Form>
  );
}

function FacetSelect({
  id,
  label,
  value,
  options,
}: {
  id: string;
  label: string;
  value: string;
  options: FacetOption[];
}) {
  return (
    <div className="min-w-0">
      <label htmlFor={id} className={fieldLabel}>
        {label}
      </label>
      <select id={id} name={id} defaultValue={value} className={selectClass}>
        <option value="">Any</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {`${option.label} (${option.count.toLocaleString("en-US")})`}
          </option>
        ))}
      </select>
    </div>
  );
}

function Checkbox({ id, label, checked }: { id: string; label: string; checked: boolean }) {
  return (
    <label htmlFor={id} className="inline-flex items-center gap-2 text-sm text-slate-200">
      <input id={id} name={id} type="checkbox" value="1" defaultChecked={checked} className="h-4 w-4 accent-blue-500" />
      {label}
    </label>
  );
}

/** A number field of the filter form: a price in dollars or a name's length in characters. */
function NumberFilter({
  id,
  label,
  kind,
  value,
}: {
  id: string;
  label: string;
  kind: "dollars" | "length";
  value: string | number;
}) {
  const dollars = kind === "dollars";
  return (
    <div className="min-w-0">
      <label htmlFor={id} className={fieldLabel}>
        {label}
      </label>
      <input
        id={id}
        name={id}
        type="number"
        min={dollars ? 0 : 1}
        max={dollars ? undefined : MAX_NAME_LENGTH}
        step={dollars ? "any" : "1"}
        inputMode={dollars ? "decimal" : "numeric"}
        defaultValue={value}
        placeholder={dollars ? "$" : undefined}
        className={inputClass}
      />
    </div>
  );
}
