import { useEffect, useState } from "react";
import { Link, useActionData, useFetcher } from "react-router";
import { TEXT, parsePrice, type AdminActionResult } from "../../lib/admin-forms";
import { DeleteDialog } from "./delete-confirmation";
import { centsToDollarText, formatUsd } from "../../lib/money";
import type { AdminDomainRow } from "../../server/admin/admin-domains.server";
import { PencilIcon, TrashIcon } from "../icons";
import { Price } from "../domain-name";
import { fieldClass } from "../ui";
import { DOMAIN_COLUMNS } from "./domain-columns";
import { useAdminHref, useHydrated, useReturnTo } from "./hooks";

const iconButton = "inline-flex rounded-md p-1.5 text-slate-300 hover:bg-slate-800 hover:text-white";
/** The price column is as wide as its editor, so opening the editor does not reflow the table. */
export const PRICE_CELL = "w-48 min-w-48 px-4 py-3 max-sm:col-span-2 max-sm:w-auto max-sm:min-w-0 max-sm:p-0";
/** Below `sm` a row is a card: the name, the price and the actions take a line each, the rest two columns. */
const ROW_CARD =
  "max-sm:grid max-sm:grid-cols-2 max-sm:gap-x-4 max-sm:gap-y-3 max-sm:rounded-xl max-sm:border max-sm:border-slate-800 max-sm:bg-slate-900/70 max-sm:p-4";
const CELL = "px-4 py-3 max-sm:block max-sm:min-w-0 max-sm:p-0";
const WIDE_CELL = `${CELL} max-sm:col-span-2`;
const smallButton = "rounded-md px-3 py-1.5 text-sm font-medium";

/**
 * One domain. With JavaScript the price edit and delete are fetcher posts; without it the same
 * controls are links (?edit=id, ?delete=id) to a form that posts and redirects back.
 */
export function DomainRow({ row, editFromUrl }: { row: AdminDomainRow; editFromUrl: boolean }) {
  const actionData = useActionData() as AdminActionResult | undefined;
  const serverError = actionData && !actionData.ok && actionData.id === row.id ? actionData : undefined;
  const [editing, setEditing] = useState(editFromUrl || serverError?.intent === "price");
  const deleteFetcher = useFetcher<AdminActionResult>();
  const href = useAdminHref();

  const startEditing = (event: React.MouseEvent) => {
    event.preventDefault();
    setEditing(true);
  };
  // With JavaScript the delete link opens the styled question as a modal; without it, its own view.
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const confirmDelete = (event: React.MouseEvent) => {
    event.preventDefault();
    setConfirmingDelete(true);
  };
  const deleteNow = () => {
    setConfirmingDelete(false);
    void deleteFetcher.submit({ intent: "delete", id: String(row.id), js: "1" }, { method: "post", action: "/admin" });
  };
  // Plain anchors, not <Link>: with JavaScript their clicks are always handled here (edit in place,
  // confirm and delete), and 150 router links per page were a fifth of the admin page's render time.
  const editHref = href({ edit: String(row.id), delete: null });
  const deleting = deleteFetcher.state !== "idle" || deleteFetcher.data?.ok;
  if (deleting) return null;
  const deleteError = deleteFetcher.data && !deleteFetcher.data.ok ? deleteFetcher.data.error : undefined;

  return (
    <tr className={`align-top ${ROW_CARD}`}>
      {DOMAIN_COLUMNS.map(({ header, cell }) => (
        <td
          key={header}
          className={
            cell === "price"
              ? PRICE_CELL
              : header === "Domain" || cell === "actions"
                ? WIDE_CELL
                : // An owner's email or a tracking ID may be longer than half a phone's width.
                  `${CELL} max-sm:wrap-anywhere`
          }
        >
          {/* On a card the header row is hidden: each value says what it is. */}
          {header === "Domain" || cell === "actions" ? null : (
            <span className="block text-xs text-slate-400 sm:hidden">{header}</span>
          )}
          {cell === "price" ? (
            row.sold_at ? (
              <span className="font-semibold">
                <Price>{formatUsd(row.asking_price_cents)}</Price>
              </span>
            ) : editing ? (
              <PriceEditor row={row} serverError={serverError?.error} onClose={() => setEditing(false)} />
            ) : (
              <a
                href={editHref}
                onClick={startEditing}
                className="font-semibold hover:underline"
                aria-label={`${formatUsd(row.asking_price_cents)}, edit the price of ${row.domain_name}`}
              >
                <Price>{formatUsd(row.asking_price_cents)}</Price>
              </a>
            )
          ) : cell === "actions" ? (
            row.sold_at ? (
              <span className="text-slate-400">Sold: no changes</span>
            ) : (
              <div className="flex gap-1">
                <a
                  href={editHref}
                  onClick={startEditing}
                  className={iconButton}
                  aria-label={`Edit price of ${row.domain_name}`}
                >
                  <PencilIcon className="h-4 w-4" />
                </a>
                <a
                  href={href({ delete: String(row.id), edit: null })}
                  onClick={confirmDelete}
                  className={iconButton}
                  aria-label={`Delete ${row.domain_name}`}
                >
                  <TrashIcon className="h-4 w-4" />
                </a>
                {confirmingDelete ? (
                  <DeleteDialog domain={row} onCancel={() => setConfirmingDelete(false)} onConfirm={deleteNow} />
                ) : null}
                {deleteError ? (
                  <span role="alert" className="text-red-300">
                    {deleteError}
                  </span>
                ) : null}
              </div>
            )
          ) : (
            // Its own block: a link in it is not "in a text block" with the phone's label.
            <div>{cell(row)}</div>
          )}
        </td>
      ))}
    </tr>
  );
}

/** The price form; its fetcher exists only while editing (one per row on every render cost real time at 50 rows). */
function PriceEditor({
  row,
  serverError,
  onClose,
}: {
  row: AdminDomainRow;
  serverError?: string;
  onClose: () => void;
}) {
  const fetcher = useFetcher<AdminActionResult>();
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) onClose();
  }, [fetcher.state, fetcher.data, onClose]);
  const hydrated = useHydrated();
  const href = useAdminHref();
  const returnTo = useReturnTo();
  const [clientError, setClientError] = useState<string | undefined>();
  const fetcherError = fetcher.data && !fetcher.data.ok ? fetcher.data.error : undefined;
  const error = clientError ?? fetcherError ?? serverError;
  const errorId = `price-error-${row.id}`;
  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    const value = String(new FormData(event.currentTarget).get("price") ?? "");
    if (parsePrice(value) === null) {
      event.preventDefault();
      setClientError(TEXT.invalidPrice);
    } else setClientError(undefined);
  };
  return (
    <fetcher.Form method="post" noValidate onSubmit={onSubmit} className="flex flex-col gap-2">
      <input type="hidden" name="id" value={row.id} />
      <input type="hidden" name="returnTo" value={returnTo} />
      {hydrated ? <input type="hidden" name="js" value="1" /> : null}
      <input
        type="number"
        name="price"
        step="0.01"
        min="0"
        // eslint-disable-next-line jsx-a11y/no-autofocus -- shown only after the admin asked to edit this price
        autoFocus
        onKeyDown={(event) => {
          // Escape cancels, as the Cancel button does.
          if (event.key !== "Escape") return;
          event.preventDefault();
          onClose();
        }}
        defaultValue={centsToDollarText(row.asking_price_cents)}
        aria-label={`New price for ${row.domain_name}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        className={`${fieldClass} w-full`}
      />
      <div className="flex gap-2">
        <button
          type="submit"
          name="intent"
          value="price"
          className={`${smallButton} bg-blue-600 text-white hover:bg-blue-700`}
          disabled={fetcher.state !== "idle"}
        >
          Save
        </button>
        <Link
          to={href({ edit: null })}
          preventScrollReset
          onClick={(event) => {
            if (!hydrated) return;
            event.preventDefault();
            onClose();
          }}
          className={`${smallButton} border border-slate-600 hover:bg-slate-800`}
        >
          Cancel
        </Link>
      </div>
      {error ? (
        <span role="alert" id={errorId} className="text-red-300">
          {error}
        </span>
      ) : null}
    </fetcher.Form>
  );
}
