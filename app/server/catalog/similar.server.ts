// "More names like this" (issue 24 item 4): up to six other live names for a domain page and lander,
// by shared category, then shared prefix ("cloudly" and "cloudbase"), then the same owner, then the
// closest prices. Each is one short index read (the category's rows, a range of the name index, the
// owner index, the price index on each side), so a page pays a few milliseconds at 100,000 names.
import { sql } from "kysely";
import type { Domain } from "../../../db/schema";
import { displayDomainName, domainPagePath } from "../../lib/domain-name";
import { formatUsd } from "../../lib/money";
import { perContentVersionMemo } from "../db/content-version.server";
import { db } from "../db/database.server";

export const MAX_SIMILAR = 6;
const PREFIX_LENGTH = 5;

type Row = { id: number; domain_name: string; asking_price_cents: number };
const columns = ["domains.id", "domains.domain_name", "domains.asking_price_cents"] as const;

function live() {
  return db.selectFrom("domains").where("domains.deleted_at", "is", null);
}

type SimilarOf = Pick<Domain, "id" | "domain_name" | "asking_price_cents" | "owner_email">;

// Made only from public columns and categories, which move the content version: remembered per version,
// so a domain page's first render asks five queries fewer (each a round trip on PostgreSQL) when the names
// were found for it since the last change.
const remembered = perContentVersionMemo<Row[]>();

/** The names like `domain`, best first. */
export function similarDomains(domain: SimilarOf): Promise<Row[]> {
  const { id, domain_name, asking_price_cents, owner_email } = domain;
  return remembered(JSON.stringify({ id, domain_name, asking_price_cents, owner_email }), () => findSimilar(domain));
}

async function findSimilar(domain: SimilarOf): Promise<Row[]> {
  const label = domain.domain_name.slice(0, domain.domain_name.indexOf("."));
  const prefix = label.slice(0, PREFIX_LENGTH);
  // The names from prefix up to (not including) the next prefix: a range of the unique name index.
  const after = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
  const owner = domain.owner_email.trim().toLowerCase();
  const price = domain.asking_price_cents;
  const [byCategory, byPrefix, byOwner, above, below] = await Promise.all([
    live()
      .innerJoin("domain_categories as dc", "dc.domain_id", "domains.id")
      .where(sql<boolean>`dc.category_id IN (SELECT category_id FROM domain_categories WHERE domain_id = ${domain.id})`)
      .where("domains.id", "!=", domain.id)
      .select(columns)
      .distinct()
      .orderBy("domains.id", "desc")
      .limit(MAX_SIMILAR)
      .execute(),
    prefix.length >= 3
      ? live()
          .where("domains.domain_name", ">=", prefix)
          .where("domains.domain_name", "<", after)
          .where("domains.id", "!=", domain.id)
          .select(columns)
          .orderBy("domains.domain_name")
          .limit(MAX_SIMILAR)
          .execute()
      : Promise.resolve([]),
    owner
      ? live()
          .where(sql<boolean>`lower(trim(domains.owner_email)) = ${owner}`)
          .where("domains.id", "!=", domain.id)
          .select(columns)
          .orderBy("domains.id", "desc")
          .limit(MAX_SIMILAR)
          .execute()
      : Promise.resolve([]),
    live()
      .where("domains.asking_price_cents", ">=", price)
      .where("domains.id", "!=", domain.id)
      .select(columns)
      .orderBy("domains.asking_price_cents")
      .orderBy("domains.id")
      .limit(MAX_SIMILAR)
      .execute(),
    live()
      .where("domains.asking_price_cents", "<", price)
      .select(columns)
      .orderBy("domains.asking_price_cents", "desc")
      .orderBy("domains.id", "desc")
      .limit(MAX_SIMILAR)
      .execute(),
  ]);
  const closest = [...above, ...below].sort(
    (a, b) =>
      Math.abs(Number(a.asking_price_cents) - price) - Math.abs(Number(b.asking_price_cents) - price) || a.id - b.id,
  );
  const chosen = new Map<number, Row>();
  for (const row of [...byCategory, ...byPrefix, ...byOwner, ...closest]) {
    if (chosen.size >= MAX_SIMILAR) break;
    if (!chosen.has(row.id)) chosen.set(row.id, { ...row, asking_price_cents: Number(row.asking_price_cents) });
  }
  return [...chosen.values()];
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!);

/**
 * The list as HTML (links only): one string in the page's data, so a prepared shell carries it in one
 * hole whatever names it holds (domain-shell.server.ts). Empty when there are none.
 */
export function similarDomainsHtml(rows: Row[]): string {
  return rows
    .map(
      (row) =>
        `<li class="min-w-0"><a class="block rounded-xl border border-slate-700 px-4 py-3 hover:border-blue-400" href="${escapeHtml(domainPagePath(row.domain_name))}">` +
        `<span class="block break-words font-semibold">${escapeHtml(displayDomainName(row.domain_name))}</span>` +
        `<span class="block text-sm text-blue-300">${escapeHtml(formatUsd(row.asking_price_cents))}</span></a></li>`,
    )
    .join("");
}
