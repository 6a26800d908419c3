// "More names like this" (issue 24 item 4): up to six other live names for a domain page and lander,
// by shared category, then shared prefix ("cloudly" and "cloudbase"), then the same owner, then the
// closest prices. Each is a short index read (the category's rows, a range of the name index, the
// owner index, the price index on each side). A category's and an owner's newest names are the same
// for all their pages: remembered per content version; the prefix's names and the price neighbours are
// one statement. The rest (owner, prefix, prices) is read only when the categories' names do not fill the
// list. So a first render of a name reads its categories (which its page shows too) and at most that
// one statement.
import { sql } from "kysely";
import type { Domain } from "../../../db/schema";
import { displayDomainName, domainPagePath } from "../../lib/domain-name";
import { formatUsd } from "../../lib/money";
import type { SimilarName } from "../../lib/seo";
import { perContentVersionMemo } from "../db/content-version.server";
import { compiledOnce, type Executor } from "../db/dialect.server";
import { normalizeEmail } from "../admin/users.server";
import { ownerEmailIs } from "./domains.server";
import { categoriesOfDomain } from "./categories.server";

export const MAX_SIMILAR = 6;
const PREFIX_LENGTH = 5;

type Row = { id: number; domain_name: string; asking_price_cents: number };
const columns = ["domains.id", "domains.domain_name", "domains.asking_price_cents"] as const;

function live(executor: Executor) {
  return executor.selectFrom("domains").where("domains.deleted_at", "is", null);
}

type SimilarOf = Pick<Domain, "id" | "domain_name" | "asking_price_cents" | "owner_email">;

// Made only from public columns and categories, which move the content version: remembered per version,
// so a domain page's first render asks its queries again only after a change.
const remembered = perContentVersionMemo<SimilarName[]>();

/** The names like `domain`, best first (at most MAX_SIMILAR); empty when there are none. */
export function similarDomains(domain: SimilarOf): Promise<SimilarName[]> {
  const { id, domain_name, asking_price_cents, owner_email } = domain;
  return remembered(JSON.stringify({ id, domain_name, asking_price_cents, owner_email }), async () =>
    (await findSimilar(domain)).map((row) => ({
      name: displayDomainName(row.domain_name),
      path: domainPagePath(row.domain_name),
      price: formatUsd(row.asking_price_cents),
    })),
  );
}

// Each compiled once (a crawl renders every name once: building the queries cost more than reading them).
// Parameters in the order the builder meets them.
/** A category's newest names, by its (category_id, domain_id) key read backwards. */
const newestInCategory = compiledOnce<Row, [categoryId: number, limit: number]>((executor) =>
  live(executor)
    .innerJoin("domain_categories as dc", "dc.domain_id", "domains.id")
    .where("dc.category_id", "=", 0)
    .select(columns)
    .orderBy("dc.domain_id", "desc")
    .limit(MAX_SIMILAR),
);
const ofOwner = compiledOnce<Row, [owner: string, limit: number]>((executor) =>
  live(executor).where(ownerEmailIs("")).select(columns).orderBy("domains.id", "desc").limit(MAX_SIMILAR),
);

// Which part of `nearby` a row comes from.
const PREFIX = 0;
const ABOVE = 1;
const BELOW = 2;

/**
 * In one statement, three ranges of two indexes: the names from a prefix up to (not including) the next
 * prefix (the unique name index), and the nearest prices on each side (the price index).
 */
const nearby = compiledOnce<
  Row & { part: number },
  [
    from: string,
    before: string,
    domainId: number,
    limit: number,
    price: number,
    domainId: number,
    limit: number,
    price: number,
    limit: number,
  ]
>((executor) => {
  const part = (query: ReturnType<typeof live>, which: number, alias: string) =>
    executor.selectFrom(query.select([...columns, sql.lit(which).as("part")]).as(alias)).selectAll();
  return part(
    live(executor)
      .where("domains.domain_name", ">=", "")
      .where("domains.domain_name", "<", "")
      .where("domains.id", "!=", 0)
      .orderBy("domains.domain_name")
      .limit(MAX_SIMILAR),
    PREFIX,
    "prefix",
  )
    .unionAll(
      part(
        live(executor)
          .where("domains.asking_price_cents", ">=", 0)
          .where("domains.id", "!=", 0)
          .orderBy("domains.asking_price_cents")
          .orderBy("domains.id")
          .limit(MAX_SIMILAR),
        ABOVE,
        "above",
      ),
    )
    .unionAll(
      part(
        live(executor)
          .where("domains.asking_price_cents", "<", 0)
          .orderBy("domains.asking_price_cents", "desc")
          .orderBy("domains.id", "desc")
          .limit(MAX_SIMILAR),
        BELOW,
        "below",
      ),
    );
});

// A category's and an owner's newest names, one more than a page shows (the page's own name may be one).
const newestOfCategory = perContentVersionMemo<Row[]>(1_000);
const newestOfOwner = perContentVersionMemo<Row[]>(1_000);
const others = (rows: Row[], id: number) => rows.filter((row) => row.id !== id).slice(0, MAX_SIMILAR);

async function findSimilar(domain: SimilarOf): Promise<Row[]> {
  const { id } = domain;
  const byCategory = await newestInCategoriesOf(id);
  // The names sharing a category come first and often fill the list: then nothing else is read.
  if (byCategory.length >= MAX_SIMILAR) return byCategory.map(withNumberPrice);
  const label = domain.domain_name.slice(0, domain.domain_name.indexOf("."));
  const prefix = label.slice(0, PREFIX_LENGTH);
  // A prefix under three letters is no likeness: an empty range.
  const [from, before] =
    prefix.length >= 3
      ? [prefix, prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1)]
      : ["", ""];
  const owner = normalizeEmail(domain.owner_email);
  const price = domain.asking_price_cents;
  const [byOwner, near] = await Promise.all([
    owner ? newestOfOwner(owner, () => ofOwner([owner, MAX_SIMILAR + 1])).then((rows) => others(rows, id)) : [],
    nearby([from, before, id, MAX_SIMILAR, price, id, MAX_SIMILAR, price, MAX_SIMILAR]),
  ]);
  const byPrefix = near.filter((row) => Number(row.part) === PREFIX);
  const closest = near
    .filter((row) => Number(row.part) !== PREFIX)
    .sort(
      (a, b) =>
        Math.abs(Number(a.asking_price_cents) - price) - Math.abs(Number(b.asking_price_cents) - price) || a.id - b.id,
    );
  const chosen = new Map<number, Row>();
  for (const row of [...byCategory, ...byPrefix, ...byOwner, ...closest]) {
    if (chosen.size >= MAX_SIMILAR) break;
    if (!chosen.has(row.id)) chosen.set(row.id, withNumberPrice(row));
  }
  return [...chosen.values()];
}

/** A row as the list writes it (PostgreSQL gives a bigint price as a string; `nearby`'s rows carry their part). */
function withNumberPrice({ id, domain_name, asking_price_cents }: Row): Row {
  return { id, domain_name, asking_price_cents: Number(asking_price_cents) };
}

/**
 * The newest live names sharing a category with the domain: per category its newest few, then merged
 * (one query over all of them at once read and sorted a whole category's rows: 8 ms for a category of
 * 10,000 names).
 */
async function newestInCategoriesOf(domainId: number): Promise<Row[]> {
  const categories = await categoriesOfDomain(domainId);
  const lists = await Promise.all(
    categories.map(({ id }) =>
      newestOfCategory(String(id), () => newestInCategory([id, MAX_SIMILAR + 1])).then((rows) =>
        others(rows, domainId),
      ),
    ),
  );
  const byId = new Map(lists.flat().map((row) => [row.id, row]));
  return [...byId.values()].sort((a, b) => b.id - a.id).slice(0, MAX_SIMILAR);
}
