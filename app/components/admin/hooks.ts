import { useLocation } from "react-router";

export { useHydrated } from "../use-hydrated";

/** The current admin URL with some search parameters changed (null removes one). */
export function useAdminHref(): (changes: Record<string, string | null>) => string {
  const location = useLocation();
  return (changes) => {
    const params = new URLSearchParams(location.search);
    params.delete("notice");
    for (const [key, value] of Object.entries(changes)) {
      if (value === null) params.delete(key);
      else params.set(key, value);
    }
    const search = params.toString();
    return `${location.pathname}${search ? `?${search}` : ""}`;
  };
}

/** Where a form post should send the admin back to (the page as it is, minus one-off parameters). */
export function useReturnTo(): string {
  return useAdminHref()({ edit: null, delete: null, add: null, refund: null });
}
