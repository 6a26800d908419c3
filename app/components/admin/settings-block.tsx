import { Form } from "react-router";
import { TEXT, type AdminActionResult } from "../../lib/admin-forms";
import { centsToDollarText } from "../../lib/money";
import { RESPONSE_WINDOW_DAYS, RESPONSE_WINDOW_FIELD, responseWindowHelp } from "../../lib/response-window";
import { card, fieldClass, primaryButton, secondaryButton } from "../ui";
import { ErrorAlert } from "./notice";

/** The Settings block: one small form per setting, so a new setting is one more SettingForm here. */
export function SettingsBlock({
  feeCents,
  result,
  responseWindowDays,
  responseWindowResult,
  silencePolicy,
}: {
  feeCents: number;
  result?: AdminActionResult;
  responseWindowDays: number;
  responseWindowResult?: AdminActionResult;
  silencePolicy: "refund" | "choose";
}) {
  return (
    <section aria-labelledby="settings-heading" className={`${card} mt-8`}>
      <h2 id="settings-heading" className="text-xl font-semibold">
        Settings
      </h2>
      <div className="mt-4 grid gap-6 md:grid-cols-2">
        <SettingForm
          id="fee"
          label="Inquiry fee (USD)"
          intent="fee"
          submitLabel="Update"
          value={centsToDollarText(feeCents)}
          result={result}
          input={{ name: "fee", step: "0.01", min: "0" }}
          help={TEXT.feeHelp}
        />
        {result?.confirm ? <ConfirmFreeFee question={result.confirm} /> : null}
        {/* The days an owner has to confirm a reply before the buyer's fee is refunded automatically. */}
        <SettingForm
          id="response-window"
          label="Response window (days)"
          intent="response-window"
          submitLabel="Save"
          value={String(responseWindowDays)}
          result={responseWindowResult}
          input={{
            name: RESPONSE_WINDOW_FIELD,
            inputMode: "numeric",
            step: "1",
            min: RESPONSE_WINDOW_DAYS.min,
            max: RESPONSE_WINDOW_DAYS.max,
            required: true,
          }}
          help={responseWindowHelp(silencePolicy, responseWindowDays)}
        />
        <SilencePolicyForm policy={silencePolicy} />
      </div>
      <p className="mt-6 text-sm">
        <a href="/admin/pages" className="text-blue-300 underline underline-offset-4">
          Edit the Terms, Privacy and Refund policy pages
        </a>
      </p>
    </section>
  );
}

/** One setting: a labelled number input and its button. A refused value stays in the field, the error under it. */
function SettingForm({
  id,
  label,
  intent,
  submitLabel,
  value,
  result,
  input,
  help,
}: {
  id: string;
  label: string;
  intent: string;
  submitLabel: string;
  value: string;
  result?: AdminActionResult;
  input: React.InputHTMLAttributes<HTMLInputElement> & { name: string };
  help?: string;
}) {
  const failed = result && !result.ok && !result.confirm ? result : undefined;
  const helpId = help ? `${id}-help` : undefined;
  const describedBy = [failed ? `${id}-error` : undefined, helpId].filter(Boolean).join(" ") || undefined;
  return (
    <Form method="post" action="/admin" className="flex flex-col gap-2">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <div className="flex gap-2">
        <input
          key={value}
          id={id}
          type="number"
          {...input}
          defaultValue={failed?.values?.[input.name] ?? value}
          aria-invalid={failed ? true : undefined}
          aria-describedby={describedBy}
          className={`${fieldClass} w-40`}
        />
        <button type="submit" name="intent" value={intent} className={primaryButton}>
          {submitLabel}
        </button>
      </div>
      {help ? (
        <p id={helpId} className="text-sm text-slate-300">
          {help}
        </p>
      ) : null}
      {failed ? <ErrorAlert id={`${id}-error`}>{failed.error}</ErrorAlert> : null}
    </Form>
  );
}

/** The second step of setting the fee to $0: a form of its own, so it works without JavaScript. */
function ConfirmFreeFee({ question }: { question: string }) {
  return (
    <Form
      method="post"
      action="/admin"
      className="rounded-lg border border-amber-600 bg-amber-950/50 p-4 md:col-span-2"
    >
      <p role="alert" className="text-amber-100">
        {question}
      </p>
      <input type="hidden" name="fee" value="0" />
      <input type="hidden" name="confirmFree" value="1" />
      <div className="mt-3 flex flex-wrap gap-3">
        <button type="submit" name="intent" value="fee" className={primaryButton}>
          {TEXT.feeConfirmFreeButton}
        </button>
        <a href="/admin" className={secondaryButton}>
          Cancel
        </a>
      </div>
    </Form>
  );
}

/** What happens to the fee when the owner does not reply in time. */
function SilencePolicyForm({ policy }: { policy: "refund" | "choose" }) {
  const options = [
    { value: "refund", label: "Refund automatically" },
    { value: "choose", label: "Let the buyer choose refund or credit" },
  ] as const;
  return (
    <Form method="post" action="/admin" className="flex flex-col gap-2 md:col-span-2" key={policy}>
      <fieldset>
        <legend className="text-sm font-medium">When the owner does not reply in time</legend>
        <div className="mt-2 flex flex-wrap gap-4">
          {options.map((option) => (
            <label key={option.value} className="flex items-center gap-2">
              <input type="radio" name="silencePolicy" value={option.value} defaultChecked={policy === option.value} />
              {option.label}
            </label>
          ))}
        </div>
      </fieldset>
      <div>
        <button type="submit" name="intent" value="silence-policy" className={secondaryButton}>
          Save refund policy
        </button>
      </div>
    </Form>
  );
}
