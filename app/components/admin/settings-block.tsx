import { Form } from "react-router";
import type { AdminActionResult } from "../../lib/admin-forms";
import { centsToDollarText } from "../../lib/money";
import { card, inputClass, primaryButton } from "../ui";
import { ErrorAlert } from "./notice";
import { ResponseWindowForm } from "./response-window-form";

/** The Settings block: one small form per setting, so new settings are one more component here. */
export function SettingsBlock({
  feeCents,
  result,
  responseWindowDays,
  responseWindowResult,
}: {
  feeCents: number;
  result?: AdminActionResult;
  responseWindowDays: number;
  responseWindowResult?: AdminActionResult;
}) {
  return (
    <section aria-labelledby="settings-heading" className={`${card} mt-8`}>
      <h2 id="settings-heading" className="text-xl font-semibold">
        Settings
      </h2>
      <div className="mt-4 grid gap-6 md:grid-cols-2">
        <InquiryFeeForm feeCents={feeCents} result={result} />
        <ResponseWindowForm days={responseWindowDays} result={responseWindowResult} />
      </div>
    </section>
  );
}

function InquiryFeeForm({ feeCents, result }: { feeCents: number; result?: AdminActionResult }) {
  const failed = result && !result.ok ? result : undefined;
  return (
    <Form method="post" action="/admin" className="flex flex-col gap-2">
      <label htmlFor="fee" className="text-sm font-medium">
        Inquiry fee (USD)
      </label>
      <div className="flex gap-2">
        <input
          key={feeCents}
          id="fee"
          name="fee"
          type="number"
          step="0.01"
          min="0"
          defaultValue={failed?.values?.fee ?? centsToDollarText(feeCents)}
          aria-invalid={failed ? true : undefined}
          aria-describedby={failed ? "fee-error" : undefined}
          className={`${inputClass} mt-0 w-40`}
        />
        <button type="submit" name="intent" value="fee" className={primaryButton}>
          Update
        </button>
      </div>
      {failed ? <ErrorAlert id="fee-error">{failed.error}</ErrorAlert> : null}
    </Form>
  );
}
