import { Link } from "react-router";
import { secondaryButton } from "./ui";

/** Previous / "Page N of M" / Next, as plain links so it works without JavaScript. */
export function Pagination({
  page,
  pageCount,
  hrefFor,
  className = "mt-6",
}: {
  page: number;
  pageCount: number;
  hrefFor: (page: number) => string;
  className?: string;
}) {
  if (pageCount <= 1) return null;
  return (
    <nav aria-label="Pagination" className={`${className} flex items-center justify-center gap-4`}>
      {page > 1 ? (
        <Link to={hrefFor(page - 1)} className={secondaryButton} rel="prev">
          Previous
        </Link>
      ) : null}
      <span className="text-slate-300">
        Page {page} of {pageCount}
      </span>
      {page < pageCount ? (
        <Link to={hrefFor(page + 1)} className={secondaryButton} rel="next">
          Next
        </Link>
      ) : null}
    </nav>
  );
}
