import { Form } from "react-router";
import type { AdminActionResult } from "../../lib/admin-forms";
import { RESPONSE_WINDOW_DAYS, RESPONSE_WINDOW_FIELD } from "../../lib/response-window";
import { inputClass, primaryButton } from "../ui";
import { ErrorAlert } from "./notice";

/** Settings: the days an owner has to confirm a reply before the buyer's fee is refunded automatically. */
export function ResponseWindowForm({ days, result }: { days: number; result?: AdminActionResult }) {
  const failed = result && !result.ok ? result : undefined;
  return (
    <Form method="post" action="/admin" className="flex flex-col gap-2">
      <label htmlFor="response-window" className="text-sm font-medium">
        Response window (days)
      </label>
      <div className="flex gap-2">
        <input
          key={days}
          id="response-window"
          name={RESPONSE_WINDOW_FIELD}
          type="number"
          inputMode="numeric"
          step="1"
          min={RESPONSE_WINDOW_DAYS.min}
          max={RESPONSE_WINDOW_DAYS.max}
          required
          defaultValue={failed?.values?.[RESPONSE_WINDOW_FIELD] ?? String(days)}
          aria-invalid={failed ? true : undefined}
          aria-describedby={failed ? "response-window-error response-window-help" : "response-window-help"}
          className={`${inputClass} mt-0 w-40`}
        />
        <button type="submit" name="intent" value="response-window" className={primaryButton}>
          Save
        </button>
      </div>
      <p id="response-window-help" className="text-sm text-slate-300">
        If the owner has not confirmed a reply within this many days, the buyer's fee is refunded automatically. Applies
        to inquiries paid from now on.
      </p>
      {failed ? <ErrorAlert id="response-window-error">{failed.error}</ErrorAlert> : null}
    </Form>
  );
}
