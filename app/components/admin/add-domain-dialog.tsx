import { useEffect, useRef } from "react";
import { Form, Link, useNavigate } from "react-router";
import { TEXT, type AdminActionResult } from "../../lib/admin-forms";
import { CATEGORIES_HELP, MAX_PITCH_LENGTH, PITCH_HELP } from "../../lib/categories";
import { inputClass, primaryButton, secondaryButton } from "../ui";
import { useAdminHref, useHydrated } from "./hooks";
import { ErrorAlert } from "./notice";

const FIELDS = [
  {
    name: "domainName",
    label: "Domain name",
    type: "text",
    placeholder: "example.com",
    required: true,
    extra: { autoCapitalize: "none", spellCheck: false },
  },
  {
    name: "askingPrice",
    label: "Asking price",
    type: "number",
    placeholder: "25000",
    required: true,
    extra: { step: "0.01", min: "0" },
  },
  {
    name: "buyNowPrice",
    label: "Buy now price",
    type: "number",
    placeholder: "",
    required: false,
    help: TEXT.buyNowHelp,
    extra: { step: "0.01", min: "0.01", max: "100000000" },
  },
  {
    name: "trackingId",
    label: "Tracking ID (username)",
    type: "text",
    placeholder: "username",
    required: true,
    extra: {},
  },
  {
    name: "ownerEmail",
    label: "Owner email",
    type: "email",
    placeholder: "owner@example.com",
    required: true,
    extra: {},
  },
  {
    name: "categories",
    label: "Categories (optional)",
    type: "text",
    placeholder: "Tech | Short names",
    required: false,
    help: CATEGORIES_HELP,
    extra: {},
  },
  {
    name: "pitch",
    label: "Pitch (optional)",
    type: "text",
    placeholder: "",
    required: false,
    help: PITCH_HELP,
    extra: { maxLength: MAX_PITCH_LENGTH },
  },
] as const;

/**
 * The Add Domain modal. Reachable as /admin?add=1: without JavaScript it renders open in the page;
 * with JavaScript it is a real modal (showModal), and Escape or Cancel closes it.
 */
export function AddDomainDialog({ open, result }: { open: boolean; result?: AdminActionResult }) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const hydrated = useHydrated();
  const href = useAdminHref();
  const navigate = useNavigate();
  const closeHref = href({ add: null });

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog || !hydrated) return;
    if (open && !dialog.matches(":modal")) {
      if (dialog.open) dialog.close();
      dialog.showModal();
    } else if (!open && dialog.open) dialog.close();
  }, [open, hydrated]);

  const failed = result && !result.ok ? result : undefined;
  if (!open && !hydrated) return null;
  return (
    <dialog
      ref={dialogRef}
      open={hydrated ? undefined : open}
      aria-labelledby="add-domain-heading"
      onClose={() => open && navigate(closeHref, { preventScrollReset: true, replace: true })}
      className="m-auto w-full max-w-lg rounded-2xl border border-slate-700 bg-slate-900 p-6 text-slate-100 backdrop:bg-black/70 [&:not([open])]:hidden"
    >
      <h2 id="add-domain-heading" className="text-xl font-semibold">
        Add Domain
      </h2>
      <Form method="post" action={href({ add: "1" })} className="mt-4 flex flex-col gap-4">
        {failed?.error ? <ErrorAlert>{failed.error}</ErrorAlert> : null}
        {FIELDS.map((field) => {
          const error = failed?.fields?.[field.name];
          return (
            <div key={field.name}>
              <label htmlFor={`add-${field.name}`} className="text-sm font-medium">
                {field.label}
              </label>
              <input
                id={`add-${field.name}`}
                name={field.name}
                type={field.type}
                required={field.required}
                placeholder={field.placeholder}
                defaultValue={failed?.values?.[field.name] ?? ""}
                aria-invalid={error ? true : undefined}
                aria-describedby={
                  [error ? `add-${field.name}-error` : "", "help" in field ? `add-${field.name}-help` : ""]
                    .join(" ")
                    .trim() || undefined
                }
                className={inputClass}
                {...field.extra}
              />
              {"help" in field ? (
                <p id={`add-${field.name}-help`} className="mt-1 text-xs text-slate-300">
                  {field.help}
                </p>
              ) : null}
              {error ? (
                <p id={`add-${field.name}-error`} className="mt-1 text-sm text-red-300">
                  {error}
                </p>
              ) : null}
            </div>
          );
        })}
        <div className="mt-2 flex justify-end gap-3">
          <Link to={closeHref} preventScrollReset className={secondaryButton}>
            Cancel
          </Link>
          <button type="submit" name="intent" value="add" className={primaryButton}>
            Add Domain
          </button>
        </div>
      </Form>
    </dialog>
  );
}
