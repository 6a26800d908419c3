import { Link } from "react-router";
import type { DomainSort } from "../../lib/admin-forms";
import type { AdminDomainRow } from "../../server/admin/admin-domains.server";
import { DOMAIN_COLUMNS } from "./domain-columns";
import { DomainRow, PRICE_CELL } from "./domain-row";
import { useAdminHref } from "./hooks";

export function DomainsTable({ rows, editId, sort }: { rows: AdminDomainRow[]; editId?: number; sort?: DomainSort }) {
  const href = useAdminHref();
  return (
    // Below `sm` the rows are cards (domain-row.tsx): no header row, no sideways scroll; sorting stays
    // in the toolbar's "Sort by".
    <div className="mt-6 sm:overflow-x-auto sm:rounded-xl sm:border sm:border-slate-800">
      <table className="w-full text-left text-sm max-sm:block sm:min-w-[56rem]">
        <thead className="bg-slate-900 text-slate-300 max-sm:hidden">
          <tr>
            {DOMAIN_COLUMNS.map((column) => (
              <th
                key={column.header}
                scope="col"
                className={`${column.cell === "price" ? PRICE_CELL : "px-4 py-3"} font-medium`}
                aria-sort={column.sort && column.sort === sort ? "descending" : undefined}
              >
                {column.sort ? (
                  // Sorting is a GET link, so it works without JavaScript; highest first.
                  <Link
                    to={href({ sort: column.sort, page: null, edit: null, delete: null })}
                    className="underline-offset-4 hover:underline"
                  >
                    {column.header}
                    {column.sort === sort ? <span aria-hidden="true"> ↓</span> : null}
                  </Link>
                ) : (
                  column.header
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-800 max-sm:flex max-sm:flex-col max-sm:gap-4 max-sm:divide-y-0">
          {rows.map((row) => (
            <DomainRow key={row.id} row={row} editFromUrl={editId === row.id} />
          ))}
        </tbody>
      </table>
    </div>
  );
}
