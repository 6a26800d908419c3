import { Form, Link } from "react-router";
import { TEXT } from "../../lib/admin-forms";
import { formatUsd } from "../../lib/money";
import type { AdminDomainRow } from "../../server/admin/admin-domains.server";
import { card, secondaryButton } from "../ui";
import { useAdminHref, useReturnTo } from "./hooks";

/** The no-JavaScript form of the delete confirm: its own view with Delete and Cancel. */
export function DeleteConfirmation({ domain }: { domain: AdminDomainRow }) {
  const href = useAdminHref();
  const returnTo = useReturnTo();
  return (
    <section aria-labelledby="delete-heading" className={`${card} mx-auto mt-10 max-w-lg text-center`}>
      <h2 id="delete-heading" className="text-xl font-semibold">
        Delete {domain.domain_name}?
      </h2>
      <p className="mt-3 text-slate-200">{TEXT.confirmDelete}</p>
      <p className="mt-1 text-sm text-slate-300">
        Listed at {formatUsd(domain.asking_price_cents)}. Paid inquiries for it stay in the inbox.
      </p>
      <Form method="post" action="/admin" className="mt-6 flex justify-center gap-3">
        <input type="hidden" name="id" value={domain.id} />
        <input type="hidden" name="returnTo" value={returnTo} />
        <Link to={href({ delete: null })} className={secondaryButton}>
          Cancel
        </Link>
        <button
          type="submit"
          name="intent"
          value="delete"
          className="inline-flex items-center justify-center rounded-lg bg-red-700 px-5 py-2.5 font-medium text-white hover:bg-red-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-400"
        >
          Delete
        </button>
      </Form>
    </section>
  );
}
