import { Pagination as PageLinks } from "../pagination";
import { useAdminHref } from "./hooks";

export function Pagination({ page, pageCount }: { page: number; pageCount: number }) {
  const href = useAdminHref();
  const hrefFor = (target: number) =>
    href({ page: target > 1 ? String(target) : null, edit: null, delete: null, add: null });
  return <PageLinks page={page} pageCount={pageCount} hrefFor={hrefFor} />;
}
