// The trust signal on the domain page: how fast this domain's owner usually confirms a reply.
// Decided per owner: all domains with the same owner email (trimmed, case-insensitive) share one
// figure, because the same person answers for all of them; a domain without an owner email (its
// mail goes to the admin) counts only its own inquiries. Reply time = answered_at - paid_at of each
// answered inquiry, over the owner's 100 most recent answers; the page shows the median rounded up
// to whole days once at least 3 are answered (typicalReplyDays in app/lib/response-window.ts).
import type { Domain } from "../../../db/schema";
import { typicalReplyDays } from "../../lib/response-window";
import { lazyStatement } from "../db/database.server";
import { currentContentVersion } from "../http/page-cache.server";

const RECENT_ANSWERS = 100;

const byOwner = lazyStatement<[string, number], { ms: number }>(
  `SELECT (julianday(i.answered_at) - julianday(i.paid_at)) * 86400000.0 AS ms
   FROM domains d JOIN inquiries i ON i.domain_id = d.id AND i.answered_at IS NOT NULL
   WHERE lower(trim(d.owner_email)) = ? AND i.paid_at IS NOT NULL
   ORDER BY i.answered_at DESC LIMIT ?`,
);
const byDomain = lazyStatement<[number, number], { ms: number }>(
  `SELECT (julianday(answered_at) - julianday(paid_at)) * 86400000.0 AS ms
   FROM inquiries WHERE domain_id = ? AND answered_at IS NOT NULL AND paid_at IS NOT NULL
   ORDER BY answered_at DESC LIMIT ?`,
);

// One figure per owner serves all of the owner's domain pages: remembered while the content version
// (migrations 0030 and 0051: bumped by every write to domains and to answered inquiries, from any
// process) is the one it was computed at.
const MAX_REMEMBERED = 10_000;
const remembered = new Map<string, number | null>();
let rememberedVersion = -1;

/** Whole days (at least 1), or null while fewer than 3 of the owner's inquiries are answered. */
export function ownerTypicalReplyDays(domain: Pick<Domain, "id" | "owner_email">): number | null {
  const owner = domain.owner_email.trim().toLowerCase();
  const key = owner ? `owner ${owner}` : `domain ${domain.id}`;
  const version = currentContentVersion();
  if (version !== rememberedVersion || remembered.size >= MAX_REMEMBERED) {
    remembered.clear();
    rememberedVersion = version;
  }
  const known = remembered.get(key);
  if (known !== undefined) return known;
  const rows = owner ? byOwner().all(owner, RECENT_ANSWERS) : byDomain().all(domain.id, RECENT_ANSWERS);
  const days = typicalReplyDays(rows.map((row) => row.ms));
  remembered.set(key, days);
  return days;
}
