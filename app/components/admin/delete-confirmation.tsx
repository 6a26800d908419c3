import { useEffect, useRef } from "react";
import { Form, Link } from "react-router";
import { TEXT } from "../../lib/admin-forms";
import { formatUsd } from "../../lib/money";
import type { AdminDomainRow } from "../../server/admin/admin-domains.server";
import { card, secondaryButton } from "../ui";
import { useAdminHref, useReturnTo } from "./hooks";

const deleteButton =
  "inline-flex items-center justify-center whitespace-nowrap rounded-lg bg-red-700 px-5 py-2.5 font-medium text-white hover:bg-red-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-400";

/** The question, the same with and without JavaScript: which name, the spec's words, what stays. */
function DeleteQuestion({
  domain,
  headingId,
  children,
}: {
  domain: AdminDomainRow;
  headingId: string;
  children: React.ReactNode;
}) {
  return (
    <>
      <h2 id={headingId} className="text-xl font-semibold wrap-anywhere">
        Delete {domain.domain_name}?
      </h2>
      <p className="mt-3 text-slate-200">{TEXT.confirmDelete}</p>
      <p className="mt-1 text-sm text-slate-300">
        Listed at {formatUsd(domain.asking_price_cents)}. Paid inquiries for it stay in the inbox.
      </p>
      <div className="mt-6 flex justify-center gap-3">{children}</div>
    </>
  );
}

/** The no-JavaScript form of the delete confirm: its own view with Delete and Cancel. */
export function DeleteConfirmation({ domain }: { domain: AdminDomainRow }) {
  const href = useAdminHref();
  const returnTo = useReturnTo();
  return (
    <section aria-labelledby="delete-heading" className={`${card} mx-auto mt-10 max-w-lg text-center`}>
      <Form method="post" action="/admin">
        <input type="hidden" name="id" value={domain.id} />
        <input type="hidden" name="returnTo" value={returnTo} />
        <DeleteQuestion domain={domain} headingId="delete-heading">
          <Link to={href({ delete: null })} className={secondaryButton}>
            Cancel
          </Link>
          <button type="submit" name="intent" value="delete" className={deleteButton}>
            Delete
          </button>
        </DeleteQuestion>
      </Form>
    </section>
  );
}

/**
 * With JavaScript, the same question as a modal over the list (showModal): Cancel or Escape closes
 * it, Delete calls `onConfirm`. Cancel comes first and has the focus, so Enter does not delete.
 */
export function DeleteDialog({
  domain,
  onCancel,
  onConfirm,
}: {
  domain: AdminDomainRow;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = dialogRef.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  const headingId = `delete-heading-${domain.id}`;
  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={headingId}
      onClose={onCancel}
      className="m-auto w-full max-w-lg rounded-2xl border border-slate-700 bg-slate-900 p-6 text-center text-slate-100 backdrop:bg-black/70"
    >
      <DeleteQuestion domain={domain} headingId={headingId}>
        <button type="button" onClick={() => dialogRef.current?.close()} className={secondaryButton}>
          Cancel
        </button>
        <button type="button" onClick={onConfirm} className={deleteButton}>
          Delete
        </button>
      </DeleteQuestion>
    </dialog>
  );
}
