import type { DomainSort } from "../../lib/admin-forms";
import type { AdminDomainRow } from "../../server/admin/admin-domains.server";
import { displayDomainName, domainPagePath } from "../../lib/domain-name";
import { DomainName } from "../domain-name";
import { LocalDate } from "./local-date";

export type DomainCell = (row: AdminDomainRow) => React.ReactNode;

/**
 * The table's plain columns, in order. Price and Actions are interactive and live in DomainRow.
 * To add a column: add an entry here (and select its data in listAdminDomains).
 */
export const DOMAIN_COLUMNS: Array<{ header: string; cell: DomainCell | "price" | "actions"; sort?: DomainSort }> = [
  {
    header: "Domain",
    cell: (row) => (
      <>
        {/* A plain link: the public page is a full document (served from the page cache), not an admin view. */}
        <a
          href={domainPagePath(row.domain_name)}
          className="font-medium text-blue-300 underline-offset-4 hover:underline"
        >
          <DomainName name={row.domain_name} />
          {/* The admin also sees the ASCII form an internationalized name is stored (and registered) as. */}
          {displayDomainName(row.domain_name) !== row.domain_name ? (
            <span className="block text-xs text-slate-300">{row.domain_name}</span>
          ) : null}
        </a>
        {row.sold_at ? <SoldMark soldAt={row.sold_at} /> : null}
      </>
    ),
  },
  { header: "Price", cell: "price", sort: "price-desc" },
  // Sortable through the "Sort by" select only: a header link named "Inquiries" would read like the nav link.
  { header: "Inquiries", cell: (row) => `${row.inquiry_count ?? 0} paid` },
  {
    header: "Views",
    sort: "views-desc",
    cell: (row) =>
      // A sold name has no admin page: its funnel stays in the insights.
      row.sold_at ? (
        row.views.toLocaleString("en-US")
      ) : (
        // A plain link (a full page load): 50 router <Link>s per page cost more to render than they save.
        <a
          aria-label={`${row.views.toLocaleString("en-US")} views, funnel and minimum offer of ${row.domain_name}`}
          className="text-blue-300 underline-offset-4 hover:underline"
          href={`/admin/domains/${row.id}`}
        >
          {row.views.toLocaleString("en-US")}
        </a>
      ),
  },
  { header: "Started", cell: (row) => row.inquiries_started.toLocaleString("en-US"), sort: "started-desc" },
  { header: "Tracking ID", cell: (row) => row.tracking_id },
  { header: "Owner Email", cell: (row) => row.owner_email || <span className="text-slate-400">Not set</span> },
  { header: "Created", cell: (row) => <LocalDate iso={row.created_at} />, sort: "newest" },
  { header: "Actions", cell: "actions" },
];

/** A sold name (issue 37) stays in the table, marked, with the day it sold; its prices are no longer edited. */
function SoldMark({ soldAt }: { soldAt: string }) {
  return (
    <span className="mt-1 flex items-center gap-2 text-xs text-slate-300">
      <span className="rounded bg-amber-900/70 px-1.5 py-0.5 font-semibold text-amber-100">Sold</span>
      <LocalDate iso={soldAt} />
    </span>
  );
}
