import { sql, type Insertable, type Kysely } from "kysely";
import { INSERT_BATCH, insertInBatches } from "./batch-insert";
import type { Database, DomainsTable } from "./schema";

const SYLLABLES = [
  "vel",
  "ora",
  "quan",
  "tix",
  "bright",
  "path",
  "nord",
  "haven",
  "lum",
  "cargo",
  "flow",
  "zen",
  "trix",
  "harb",
  "mint",
  "leaf",
  "sol",
  "vane",
  "pix",
  "forge",
  "true",
  "north",
  "nova",
  "kai",
  "ly",
  "io",
  "max",
  "sky",
  "port",
  "wave",
];
const TLDS = ["com", "com", "com", "com", "io", "ai", "co", "net", "app"];

/** Categories the generated names are given, one each (index order), for the browse filters' bench. */
export const SEED_CATEGORIES = [
  "Tech",
  "Finance",
  "Travel",
  "Health",
  "Food",
  "Games",
  "Energy",
  "Media",
  "Home",
  "Sports",
];

/**
 * A deterministic, believable name for row `index` (unique because the index is part of it). Every odd
 * row writes its index in letters after a hyphen ("velora-bcd"), so some names have no digits.
 */
export function generatedDomainName(index: number): string {
  let seed = (index + 1) * 2654435761;
  const pick = <T>(list: T[]): T => {
    seed = (seed ^ (seed >>> 13)) * 1274126177;
    return list[Math.abs(seed) % list.length]!;
  };
  const number =
    index % 2 === 1 ? `-${String(index).replace(/\d/g, (digit) => "abcdefghij"[Number(digit)]!)}` : String(index);
  return `${pick(SYLLABLES)}${pick(SYLLABLES)}${number}.${pick(TLDS)}`;
}

/**
 * Inserts `count` generated domains in one transaction (benchmarks and load tests: `npm run seed-many`),
 * a thousand rows per statement. Created a second apart, newest last, so "newest first" pages are stable.
 * `executor` must be a transaction (all rows or none).
 */
export async function seedManyDomains(
  executor: Kysely<Database>,
  count: number,
  start = Date.now() - count * 1000,
): Promise<number> {
  const { n: first } = await executor
    .selectFrom("domains")
    .select((eb) => eb.fn.coalesce(eb.fn.max("id"), eb.lit(0)).as("n"))
    .executeTakeFirstOrThrow();
  // Built a batch at a time: 100,000 rows as objects at once would only cost memory.
  for (let offset = 0; offset < count; offset += INSERT_BATCH) {
    const rows: Array<Insertable<DomainsTable>> = [];
    for (let i = offset; i < Math.min(count, offset + INSERT_BATCH); i += 1) {
      const index = Number(first) + i;
      const timestamp = new Date(start + i * 1000).toISOString();
      const priceCents = (((index * 7919) % 5000) + 1) * 10_000;
      rows.push({
        domain_name: generatedDomainName(index),
        asking_price_cents: priceCents,
        tracking_id: `owner${index % 500}`,
        owner_email: `owner${index % 500}@example.test`,
        created_at: timestamp,
        updated_at: timestamp,
      });
    }
    await insertInBatches(executor, "domains", rows);
  }
  await seedCategories(executor, Number(first) + 1);
  return count;
}

/** Gives every domain from id `fromId` on one of SEED_CATEGORIES (by id), making the categories first. */
async function seedCategories(executor: Kysely<Database>, fromId: number): Promise<void> {
  const now = new Date().toISOString();
  await executor
    .insertInto("categories")
    .values(SEED_CATEGORIES.map((name) => ({ slug: name.toLowerCase(), name, created_at: now })))
    .onConflict((oc) => oc.column("slug").doNothing())
    .execute();
  const categories = await executor.selectFrom("categories").select(["id", "slug"]).execute();
  for (const [index, name] of SEED_CATEGORIES.entries()) {
    const id = categories.find((category) => category.slug === name.toLowerCase())!.id;
    await executor
      .insertInto("domain_categories")
      .columns(["category_id", "domain_id"])
      .expression((eb) =>
        eb
          .selectFrom("domains")
          .select([sql.lit(Number(id)).as("category_id"), "id"])
          .where("id", ">=", fromId)
          .where(sql<boolean>`id % ${SEED_CATEGORIES.length} = ${index}`),
      )
      .execute();
  }
}
