import { Link } from "react-router";
import { pageWindow } from "../lib/pagination";
import { secondaryButton } from "./ui";

const pageLink =
  "inline-flex min-w-10 items-center justify-center rounded-lg border border-slate-600 px-3 py-2 text-slate-100 hover:bg-slate-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-400";
const currentPageLink = "border-blue-400 bg-blue-600 font-semibold text-white hover:bg-blue-600";

/**
 * Previous, the page numbers (first, last and those around the current page), Next and "Page N of M",
 * as plain links so it works without JavaScript.
 */
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
    <nav aria-label="Pagination" className={`${className} flex flex-wrap items-center justify-center gap-x-4 gap-y-3`}>
      {page > 1 ? (
        <Link to={hrefFor(page - 1)} className={secondaryButton} rel="prev">
          Previous
        </Link>
      ) : null}
      <ul className="flex flex-wrap items-center justify-center gap-2">
        {pageWindow(page, pageCount).map((item, index) =>
          item === "gap" ? (
            <li key={`gap-${index}`} aria-hidden="true" className="px-1 text-slate-400">
              …
            </li>
          ) : (
            <li key={item}>
              <Link
                to={hrefFor(item)}
                aria-label={`Page ${item}`}
                aria-current={item === page ? "page" : undefined}
                className={item === page ? `${pageLink} ${currentPageLink}` : pageLink}
              >
                {item}
              </Link>
            </li>
          ),
        )}
      </ul>
      {page < pageCount ? (
        <Link to={hrefFor(page + 1)} className={secondaryButton} rel="next">
          Next
        </Link>
      ) : null}
      <span className="basis-full text-center text-slate-300">
        Page {page} of {pageCount}
      </span>
    </nav>
  );
}
