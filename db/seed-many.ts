import type Database from "better-sqlite3";

const SYLLABLES = ["vel", "ora", "quan", "tix", "bright", "path", "nord", "haven", "lum", "cargo", "flow", "zen", "trix", "harb", "mint", "leaf", "sol", "vane", "pix", "forge", "true", "north", "nova", "kai", "ly", "io", "max", "sky", "port", "wave"];
const TLDS = ["com", "com", "com", "com", "io", "ai", "co", "net", "app"];

/** A deterministic, believable name for row `index` (unique because the index is part of it). */
export function generatedDomainName(index: number): string {
  let seed = (index + 1) * 2654435761;
  const pick = <T>(list: T[]): T => {
    seed = (seed ^ (seed >>> 13)) * 1274126177;
    return list[Math.abs(seed) % list.length]!;
  };
  return `${pick(SYLLABLES)}${pick(SYLLABLES)}${index}.${pick(TLDS)}`;
}

/**
 * Inserts `count` generated domains in one transaction (benchmarks and load tests: `npm run seed-many`).
 * Created a second apart, newest last, so "newest first" pages are stable.
 */
export function seedManyDomains(sqlite: Database.Database, count: number, start = Date.now() - count * 1000): number {
  const insert = sqlite.prepare(
    `INSERT INTO domains (domain_name, asking_price_cents, tracking_id, owner_email, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const first = (sqlite.prepare("SELECT coalesce(max(id), 0) AS n FROM domains").get() as { n: number }).n;
  sqlite.transaction(() => {
    for (let i = 0; i < count; i += 1) {
      const index = first + i;
      const timestamp = new Date(start + i * 1000).toISOString();
      const priceCents = (((index * 7919) % 5000) + 1) * 10_000;
      insert.run(generatedDomainName(index), priceCents, `owner${index % 500}`, `owner${index % 500}@example.test`, timestamp, timestamp);
    }
  })();
  return count;
}
