import { useSyncExternalStore } from "react";

const noop = () => () => {};

/** False during the server render and hydration, true once JavaScript runs the page. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noop,
    () => true,
    () => false,
  );
}
