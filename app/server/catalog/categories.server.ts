// Categories of names (migration 0161): given by the admin, offered by the home page's filter, each with
// its own page. A category shows while a live name uses it.
import type { CategoryName } from "../../lib/categories";
import { nowIso } from "../runtime/clock.server";
import { db } from "../db/database.server";
import { compiledOnce, inList, type Executor } from "../db/dialect.server";
import { perContentVersion, perContentVersionMemo } from "../db/content-version.server";

export interface CategoryCount {
  id: number;
  slug: string;
  name: string;
  count: number;
}

/** Categories with live names and how many, by name; counted once per content version. */
export const categoryCounts = perContentVersion<CategoryCount[]>(async () => {
  const rows = await db
    .selectFrom("categories as c")
    .innerJoin("domain_categories as dc", "dc.category_id", "c.id")
    .innerJoin("domains as d", "d.id", "dc.domain_id")
    .where("d.deleted_at", "is", null)
    .select(["c.id", "c.slug", "c.name", (eb) => eb.fn.countAll<number>().as("count")])
    .groupBy(["c.id", "c.slug", "c.name"])
    .execute();
  return rows
    .map((row) => ({ id: Number(row.id), slug: row.slug, name: row.name, count: Number(row.count) }))
    .sort((a, b) => a.name.localeCompare(b.name, "en"));
});

/** A category with live names, by slug. */
export async function findCategory(slug: string): Promise<CategoryCount | null> {
  return (await categoryCounts()).find((category) => category.slug === slug) ?? null;
}

export interface DomainCategory extends CategoryName {
  id: number;
}

const categoriesOfOne = compiledOnce<DomainCategory, [domainId: number]>((executor) =>
  executor
    .selectFrom("domain_categories as dc")
    .innerJoin("categories as c", "c.id", "dc.category_id")
    .where("dc.domain_id", "=", 0)
    .select(["c.id", "c.slug", "c.name"])
    .orderBy("c.name"),
);
const rememberedOfOne = perContentVersionMemo<DomainCategory[]>();

/**
 * A domain's categories by name, with their ids, remembered per content version: its page shows them and
 * its "More names like this" starts from them (one statement for both).
 */
export function categoriesOfDomain(domainId: number): Promise<DomainCategory[]> {
  return rememberedOfOne(String(domainId), async () =>
    (await categoriesOfOne([domainId])).map(({ id, slug, name }) => ({ id: Number(id), slug, name })),
  );
}

/** The categories of each of `domainIds`, by name, as { slug, name }. */
export async function categoriesOfDomains(
  domainIds: number[],
  executor: Executor = db,
): Promise<Map<number, CategoryName[]>> {
  const byDomain = new Map<number, CategoryName[]>();
  if (domainIds.length === 0) return byDomain;
  const rows = await executor
    .selectFrom("domain_categories as dc")
    .innerJoin("categories as c", "c.id", "dc.category_id")
    .where(inList("dc.domain_id", domainIds))
    .select(["dc.domain_id", "c.slug", "c.name"])
    .orderBy("c.name")
    .execute();
  for (const row of rows) {
    const list = byDomain.get(Number(row.domain_id)) ?? [];
    list.push({ slug: row.slug, name: row.name });
    byDomain.set(Number(row.domain_id), list);
  }
  return byDomain;
}

/**
 * Gives a domain exactly these categories (made when new; an existing slug keeps its name). Run inside
 * the transaction that writes the domain.
 */
export async function setDomainCategories(
  executor: Executor,
  domainId: number,
  categories: CategoryName[],
): Promise<void> {
  await executor.deleteFrom("domain_categories").where("domain_id", "=", domainId).execute();
  if (categories.length === 0) return;
  await executor
    .insertInto("categories")
    .values(categories.map(({ slug, name }) => ({ slug, name, created_at: nowIso() })))
    .onConflict((oc) => oc.column("slug").doNothing())
    .execute();
  const ids = await executor
    .selectFrom("categories")
    .select("id")
    .where(
      inList(
        "slug",
        categories.map((category) => category.slug),
      ),
    )
    .execute();
  await executor
    .insertInto("domain_categories")
    .values(ids.map(({ id }) => ({ category_id: Number(id), domain_id: domainId })))
    .execute();
}
