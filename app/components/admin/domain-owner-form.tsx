import { Form } from "react-router";
import { card, inputClass, primaryButton } from "../ui";
import { ErrorAlert } from "./notice";

const FIELDS = [
  { name: "ownerEmail", id: "owner-email", label: "Owner email", type: "email", required: false },
  { name: "trackingId", id: "tracking-id", label: "Tracking ID", type: "text", required: true },
] as const;

export type DomainOwnerValues = Record<(typeof FIELDS)[number]["name"], string>;

/** The domain's owner email and tracking ID, with the server's message under a field it refused. */
export function DomainOwnerForm({
  current,
  fields,
  values,
}: {
  current: DomainOwnerValues;
  fields?: Partial<Record<string, string>>;
  values?: DomainOwnerValues;
}) {
  const failed = fields && Object.values(fields)[0];
  return (
    <section aria-labelledby="owner-heading" className={`${card} mt-10 max-w-xl`}>
      <h2 id="owner-heading" className="text-xl font-semibold">
        Owner
      </h2>
      <p className="mt-1 text-sm text-slate-300">
        New inquiries go to the owner email (empty: to the admin). Inquiries already paid stay with the owner they were
        sent to.
      </p>
      <Form method="post" className="mt-4 flex flex-col gap-4">
        {FIELDS.map((field) => {
          const error = fields?.[field.name];
          return (
            <div key={field.name}>
              <label htmlFor={field.id} className="text-sm text-slate-200">
                {field.label}
              </label>
              <input
                key={`${current[field.name]}:${values?.[field.name] ?? ""}`}
                id={field.id}
                name={field.name}
                type={field.type}
                required={field.required}
                defaultValue={values?.[field.name] ?? current[field.name]}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${field.id}-error` : undefined}
                autoCapitalize="none"
                spellCheck={false}
                className={inputClass}
              />
              {error ? (
                <p id={`${field.id}-error`} className="mt-1 text-sm text-red-300">
                  {error}
                </p>
              ) : null}
            </div>
          );
        })}
        <div>
          <button type="submit" name="intent" value="owner" className={primaryButton}>
            Save owner
          </button>
        </div>
      </Form>
      {failed ? <ErrorAlert className="mt-4">{`Owner not saved: ${failed}`}</ErrorAlert> : null}
    </section>
  );
}
