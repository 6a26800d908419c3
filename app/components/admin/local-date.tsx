import { useHydrated } from "./hooks";

/** A date in the viewer's time zone once JavaScript runs; in UTC from the server (it cannot know the zone). */
export function LocalDate({ iso }: { iso: string }) {
  const hydrated = useHydrated();
  const date = new Date(iso);
  const text = hydrated ? date.toLocaleDateString() : date.toLocaleDateString("en-US", { timeZone: "UTC" });
  return <time dateTime={iso}>{text}</time>;
}
