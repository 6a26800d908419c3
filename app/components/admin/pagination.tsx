import { Link } from "react-router";
import { secondaryButton } from "../ui";
import { useAdminHref } from "./hooks";

export function Pagination({ page, pageCount }: { page: number; pageCount: number }) {
  const href = useAdminHref();
  if (pageCount <= 1) return null;
  const to = (target: number) => href({ page: target > 1 ? String(target) : null, edit: null, delete: null, add: null });
  return (
    <nav aria-label="Pagination" className="mt-6 flex items-center justify-center gap-4">
      {page > 1 ? (
        <Link to={to(page - 1)} className={secondaryButton} rel="prev">
          Previous
        </Link>
      ) : null}
      <span className="text-slate-300">
        Page {page} of {pageCount}
      </span>
      {page < pageCount ? (
        <Link to={to(page + 1)} className={secondaryButton} rel="next">
          Next
        </Link>
      ) : null}
    </nav>
  );
}
