import type { AdminDomainRow } from "../../server/admin-domains.server";
import { DOMAIN_COLUMNS } from "./domain-columns";
import { DomainRow } from "./domain-row";

export function DomainsTable({ rows, editId }: { rows: AdminDomainRow[]; editId?: number }) {
  return (
    <div className="mt-6 overflow-x-auto rounded-xl border border-slate-800">
      <table className="w-full min-w-[56rem] text-left text-sm">
        <thead className="bg-slate-900 text-slate-300">
          <tr>
            {DOMAIN_COLUMNS.map((column) => (
              <th key={column.header} scope="col" className="px-4 py-3 font-medium">
                {column.header}
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
