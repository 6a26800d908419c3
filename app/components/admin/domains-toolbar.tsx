import { Form } from "react-router";
import { DOMAIN_SORTS } from "../../lib/admin-forms";
import { MAX_SEARCH_LENGTH } from "../../lib/search";
import { fieldClass, fieldHeight, secondaryButton } from "../ui";

/** Search and sort: a GET form, so every view of the table is a URL. */
export function DomainsToolbar({ q, sort, total }: { q: string; sort: string; total: number }) {
  return (
    <div className="mt-4 flex flex-wrap items-end justify-between gap-4">
      <Form method="get" action="/admin" role="search" className="flex flex-wrap items-end gap-2">
        <div>
          <label htmlFor="admin-q" className="text-sm text-slate-300">
            Search domains
          </label>
          <input
            id="admin-q"
            name="q"
            type="search"
            defaultValue={q}
            maxLength={MAX_SEARCH_LENGTH}
            placeholder="Name, tracking ID or owner email"
            className={`${fieldClass} mt-1 w-56`}
          />
        </div>
        <div>
          <label htmlFor="admin-sort" className="text-sm text-slate-300">
            Sort by
          </label>
          {/* Keyed by the sort: a column header link changes it by client-side navigation too. */}
          {/* With JavaScript a new sort applies at once; without it, with the Search button. */}
          <select
            key={sort}
            id="admin-sort"
            name="sort"
            defaultValue={sort}
            onChange={(event) => event.currentTarget.form?.requestSubmit()}
            className={`${fieldClass} ${fieldHeight} mt-1 w-48`}
          >
            {DOMAIN_SORTS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className={`${secondaryButton} ${fieldHeight}`}>
          Search
        </button>
      </Form>
      <p className="text-sm text-slate-300">
        {total === 1 ? "1 domain" : `${total.toLocaleString("en-US")} domains`}
        {q ? ` matching "${q}"` : ""}
      </p>
    </div>
  );
}
