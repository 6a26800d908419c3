import { Link } from "react-router";
import type { DomainSort } from "../../lib/admin-forms";
import type { AdminDomainRow } from "../../server/admin/admin-domains.server";
import { DOMAIN_COLUMNS } from "./domain-columns";
import { DomainRow, PRICE_CELL } from "./domain-row";
import { useAdminHref } from "./hooks";

export function DomainsTable({ rows, editId, sort }: { rows: AdminDomainRow[]; editId?: number; sort?: DomainSort }) {
  const href = useAdminHref();
  return (
    <div className="mt-6 overflow-x-auto rounded-xl border border-slate-800">
      <table className="w-full min-w-[56rem] text-left text-sm">
        <thead className="bg-slate-900 text-slate-300">
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
        <tbody className="divide-y divide-slate-800">
          {rows.map((row) => (
            <DomainRow key={row.id} row={row} editFromUrl={editId === row.id} />
          ))}
        </tbody>
      </table>
    </div>
  );
}
