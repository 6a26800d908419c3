import { useState } from "react";
import { useNavigate } from "react-router";
import { INQUIRY_LIMITS, PAYMENT_TEXTS, REQUIRED_FIELDS_MESSAGE } from "../../lib/inquiry";
import { CONTINUE_BELOW_MINIMUM_FIELD } from "../../lib/offer-floor";
import { CREDIT_CODE_FIELD } from "../../lib/credit-code";
import { formatUsd } from "../../lib/money";
import { TEST_MODE_LABEL } from "../../lib/test-card";
import { inputClass, primaryButton } from "../ui";
import { postJson, useHydrated } from "./payment-client";

export type InquiryValues = { name: string; email: string; phone: string; offer: string; message: string };
export type InquiryErrors = Partial<Record<keyof InquiryValues, string>>;

const FIELDS: Array<{
  name: keyof InquiryValues;
  label: string;
  type: string;
  required: boolean;
  max: number;
  autoComplete: string;
}> = [
  { name: "name", label: "Full Name", type: "text", required: true, max: INQUIRY_LIMITS.name, autoComplete: "name" },
  {
    name: "email",
    label: "Email Address",
    type: "email",
    required: true,
    max: INQUIRY_LIMITS.email,
    autoComplete: "email",
  },
  { name: "phone", label: "Phone", type: "tel", required: false, max: INQUIRY_LIMITS.phone, autoComplete: "tel" },
  {
    name: "offer",
    label: "Your Offer",
    type: "text",
    required: false,
    max: INQUIRY_LIMITS.offer,
    autoComplete: "off",
  },
];

type CreatedPayment = { redirect: string };

/** Invalid fields: a red border (with aria-invalid, the message tied to the field by aria-describedby). */
const markedClass = "aria-invalid:border-red-400 aria-invalid:focus:border-red-400 aria-invalid:focus:ring-red-400/40";
/** The offer below the owner's minimum: amber, a warning and not an error. */
const warnedClass =
  "data-warned:border-amber-400 data-warned:focus:border-amber-400 data-warned:focus:ring-amber-400/40";

const FIELD_NAMES = ["name", "email", "phone", "offer", "message"] as const;

/** The server's `field_errors`, kept to the form's fields and to strings. */
function fieldErrorsFrom(value: unknown): InquiryErrors {
  const errors: InquiryErrors = {};
  if (typeof value !== "object" || value === null) return errors;
  for (const name of FIELD_NAMES) {
    const message = (value as Record<string, unknown>)[name];
    if (typeof message === "string") errors[name] = message;
  }
  return errors;
}

/**
 * The inquiry step. Without JavaScript it posts to the page's action (then a 303 to the checkout page);
 * with it, the same form calls the create-payment-intent route and moves to the payment step.
 */
export function InquiryForm(props: {
  domainName: string;
  feeCents: number;
  testMode: boolean;
  error: string | null;
  fieldErrors: InquiryErrors;
  values: Partial<InquiryValues>;
  /** The offer is below the owner's minimum: show the amber warning, and the one button becomes "Send anyway". */
  belowMinimum?: boolean;
  /** What the buyer typed in "Credit code", kept when the form comes back. */
  creditCode?: string;
  /** The domain's guiding price: the offer's placeholder (an offer is anchored on it, not on a low example). */
  guidingPriceCents?: number | null;
}) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(props.error);
  const [fieldErrors, setFieldErrors] = useState<InquiryErrors>(props.fieldErrors);
  const [belowMinimum, setBelowMinimum] = useState(props.belowMinimum ?? false);

  async function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget, (event.nativeEvent as SubmitEvent).submitter);
    const value = (key: string) => String(form.get(key) ?? "");
    const missing: InquiryErrors = {};
    for (const key of ["name", "email", "message"] as const)
      if (value(key).trim() === "") missing[key] = REQUIRED_FIELDS_MESSAGE;
    setFieldErrors(missing);
    if (Object.keys(missing).length > 0) return setError(REQUIRED_FIELDS_MESSAGE);
    setBusy(true);
    setError(null);
    const result = await postJson<CreatedPayment & { field_errors?: InquiryErrors }>("/api/create-payment-intent", {
      domain_name: props.domainName,
      customer_info: {
        name: value("name"),
        email: value("email"),
        phone: value("phone"),
        offer: value("offer"),
        message: value("message"),
        [CONTINUE_BELOW_MINIMUM_FIELD]: value(CONTINUE_BELOW_MINIMUM_FIELD),
        [CREDIT_CODE_FIELD]: value(CREDIT_CODE_FIELD),
      },
      [INQUIRY_LIMITS.honeypotField]: value(INQUIRY_LIMITS.honeypotField),
    });
    if (!result.ok) {
      setBusy(false);
      setBelowMinimum(result.body?.below_minimum === true);
      // The server's verdict on each field (an address it does not accept), marked as the no-JS page marks it.
      setFieldErrors(fieldErrorsFrom(result.body?.field_errors));
      return setError(result.error ?? PAYMENT_TEXTS.initFailed);
    }
    // The browser's Back from the payment step then shows this form filled in again (?edit=).
    const inquiryId = new URL(result.data.redirect, window.location.href).searchParams.get("inquiry");
    if (inquiryId)
      window.history.replaceState(
        window.history.state,
        "",
        `${window.location.pathname}?edit=${encodeURIComponent(inquiryId)}`,
      );
    navigate(result.data.redirect);
  }

  const free = props.feeCents === 0;
  const describedBy = (name: keyof InquiryValues) =>
    fieldErrors[name]
      ? `inquiry-${name}-error`
      : name === "offer" && belowMinimum
        ? "inquiry-offer-warning"
        : undefined;
  const offerPlaceholder = props.guidingPriceCents ? `e.g. ${formatUsd(props.guidingPriceCents)}` : "Amount in USD";
  // JS: a changed offer is a new one, so the warning about the old one goes (without JS it stays until sent).
  const offerChanged = () => {
    if (!belowMinimum) return;
    setBelowMinimum(false);
    setError(null);
  };
  return (
    <form
      method="post"
      noValidate
      onSubmit={hydrated ? handleSubmit : undefined}
      className="mt-6 space-y-5"
      aria-describedby="inquiry-fee"
    >
      <input type="hidden" name="intent" value="inquiry" />
      <p id="inquiry-fee" className="text-slate-300">
        {free ? (
          "Inquiries are currently free."
        ) : (
          <>
            One-time inquiry fee: <strong className="text-white">{formatUsd(props.feeCents)}</strong>
          </>
        )}
        {props.testMode && !free && (
          <span className="ml-2 rounded bg-amber-400/15 px-2 py-0.5 text-sm text-amber-200">{TEST_MODE_LABEL}</span>
        )}
      </p>
      {FIELDS.map((field) => (
        <Field
          key={field.name}
          id={`inquiry-${field.name}`}
          label={field.label}
          required={field.required}
          error={fieldErrors[field.name]}
        >
          <input
            id={`inquiry-${field.name}`}
            name={field.name}
            type={field.type}
            required={field.required}
            maxLength={field.max}
            autoComplete={field.autoComplete}
            placeholder={field.name === "offer" ? offerPlaceholder : undefined}
            defaultValue={props.values[field.name] ?? ""}
            onChange={field.name === "offer" && hydrated ? offerChanged : undefined}
            aria-invalid={fieldErrors[field.name] ? true : undefined}
            aria-describedby={describedBy(field.name)}
            data-warned={field.name === "offer" && belowMinimum ? "" : undefined}
            className={`${inputClass} ${markedClass} ${warnedClass}`}
          />
        </Field>
      ))}
      <Field id="inquiry-message" label="Message to Owner" required error={fieldErrors.message}>
        <textarea
          id="inquiry-message"
          name="message"
          required
          rows={6}
          maxLength={INQUIRY_LIMITS.message}
          defaultValue={props.values.message ?? ""}
          aria-invalid={fieldErrors.message ? true : undefined}
          aria-describedby={describedBy("message")}
          className={`${inputClass} ${markedClass}`}
        />
      </Field>
      {!free && (
        <div>
          <label htmlFor="inquiry-credit-code" className="block text-sm font-medium text-slate-200">
            Credit code <span className="font-normal text-slate-400">(optional)</span>
          </label>
          <input
            id="inquiry-credit-code"
            name={CREDIT_CODE_FIELD}
            type="text"
            maxLength={64}
            autoComplete="off"
            spellCheck={false}
            placeholder="CR-XXXX-XXXX-XXXX"
            defaultValue={props.creditCode ?? ""}
            aria-describedby="inquiry-credit-code-help"
            className={inputClass}
          />
          <p id="inquiry-credit-code-help" className="mt-1 text-sm text-slate-400">
            Have a credit from an earlier inquiry? Enter it to send this inquiry without paying.
          </p>
        </div>
      )}
      <div className="hidden">
        <label htmlFor="inquiry-website">Leave this field empty</label>
        <input
          id="inquiry-website"
          name={INQUIRY_LIMITS.honeypotField}
          type="text"
          tabIndex={-1}
          autoComplete="off"
          defaultValue=""
        />
      </div>
      {belowMinimum ? (
        // A warning, not an error: the offer is allowed, the owner will likely decline it.
        <div className="rounded-lg border border-amber-500/60 bg-amber-950/50 px-4 py-3 text-amber-100">
          <p id="inquiry-offer-warning" role="alert" className="font-medium">
            {error}
          </p>
          <p className="mt-1 text-sm">Raise your offer above, or send it as it is.</p>
        </div>
      ) : (
        <div
          role="alert"
          className={error ? "rounded-lg border border-red-500/50 bg-red-950/60 px-4 py-3 text-red-100" : undefined}
        >
          {error}
        </div>
      )}
      {/* After the warning the one button sends the offer as it is ("Send anyway"). */}
      <button
        type="submit"
        name={belowMinimum ? CONTINUE_BELOW_MINIMUM_FIELD : undefined}
        value={belowMinimum ? "1" : undefined}
        className={`${primaryButton} w-full text-lg`}
        disabled={busy}
      >
        {busy ? PAYMENT_TEXTS.processing : belowMinimum ? "Send anyway" : free ? "Send Inquiry" : "Continue to Payment"}
      </button>
    </form>
  );
}

function Field(props: { id: string; label: string; required: boolean; error?: string; children: React.ReactNode }) {
  return (
    <div>
      <label htmlFor={props.id} className="block text-sm font-medium text-slate-200">
        {props.label}
        {props.required && (
          <span aria-hidden="true" className="text-red-300">
            {" "}
            *
          </span>
        )}
      </label>
      {props.children}
      {props.error && (
        <p id={`${props.id}-error`} className="mt-1 text-sm text-red-300">
          {props.error === REQUIRED_FIELDS_MESSAGE ? `${props.label} is required.` : props.error}
        </p>
      )}
    </div>
  );
}
