import { Form } from "react-router";
import { CATEGORIES_HELP } from "../../lib/categories";
import { card, inputClass, primaryButton } from "../ui";
import { ErrorAlert } from "./notice";

/** The domain's edit form for what buyers read besides the name and price: its categories. */
export function ListingForm({ categories, error, value }: { categories: string; error?: string; value?: string }) {
  return (
    <section aria-labelledby="listing-heading" className={`${card} mt-10 max-w-xl`}>
      <h2 id="listing-heading" className="text-xl font-semibold">
        Listing
      </h2>
      <Form method="post" className="mt-4 flex flex-col gap-4">
        <div>
          <label htmlFor="categories" className="text-sm text-slate-200">
            Categories
          </label>
          <input
            key={`${categories}:${value ?? ""}`}
            id="categories"
            name="categories"
            type="text"
            defaultValue={value ?? categories}
            aria-invalid={error ? true : undefined}
            aria-describedby={`categories-help${error ? " listing-error" : ""}`}
            className={inputClass}
          />
          <p id="categories-help" className="mt-1 text-xs text-slate-300">
            {CATEGORIES_HELP}
          </p>
        </div>
        <div>
          <button type="submit" name="intent" value="listing" className={primaryButton}>
            Save listing
          </button>
        </div>
      </Form>
      {error ? (
        <ErrorAlert id="listing-error" className="mt-4">
          {error}
        </ErrorAlert>
      ) : null}
    </section>
  );
}
