import { Form } from "react-router";
import { CATEGORIES_HELP, MAX_PITCH_LENGTH, PITCH_HELP } from "../../lib/categories";
import { card, inputClass, primaryButton } from "../ui";
import { ErrorAlert } from "./notice";

/** The domain's edit form for what buyers read besides the name and price: its categories and pitch. */
export function ListingForm({
  categories,
  pitch,
  error,
  value,
}: {
  categories: string;
  pitch: string;
  error?: string;
  value?: { categories: string; pitch: string };
}) {
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
            key={`${categories}:${value?.categories ?? ""}`}
            id="categories"
            name="categories"
            type="text"
            defaultValue={value?.categories ?? categories}
            aria-invalid={error ? true : undefined}
            aria-describedby={`categories-help${error ? " listing-error" : ""}`}
            className={inputClass}
          />
          <p id="categories-help" className="mt-1 text-xs text-slate-300">
            {CATEGORIES_HELP}
          </p>
        </div>
        <div>
          <label htmlFor="pitch" className="text-sm text-slate-200">
            Pitch
          </label>
          <textarea
            key={`${pitch}:${value?.pitch ?? ""}`}
            id="pitch"
            name="pitch"
            rows={3}
            maxLength={MAX_PITCH_LENGTH}
            defaultValue={value?.pitch ?? pitch}
            aria-describedby="pitch-help"
            className={inputClass}
          />
          <p id="pitch-help" className="mt-1 text-xs text-slate-300">
            {PITCH_HELP}
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
