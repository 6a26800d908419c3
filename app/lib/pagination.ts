/** A page number to link to, or a gap ("…") between two that are not neighbours. */
export type PageItem = number | "gap";

/**
 * The page numbers a long list links to: the first, the last and `radius` pages either side of the
 * current one, with a gap where pages are left out. A gap would hide a single page: that page is shown.
 */
export function pageWindow(page: number, pageCount: number, radius = 1): PageItem[] {
  const shown = new Set<number>([1, pageCount]);
  for (let near = page - radius; near <= page + radius; near++) if (near >= 1 && near <= pageCount) shown.add(near);
  const sorted = [...shown].sort((a, b) => a - b);
  const items: PageItem[] = [];
  for (const number of sorted) {
    const previous = items.at(-1);
    if (typeof previous === "number" && number - previous === 2) items.push(previous + 1);
    else if (typeof previous === "number" && number - previous > 2) items.push("gap");
    items.push(number);
  }
  return items;
}
