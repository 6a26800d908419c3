// The trust signal on the domain page: how fast this domain's owner usually confirms a reply.
// Decided per owner: all domains with the same owner email (trimmed, case-insensitive) share one
// figure, because the same person answers for all of them; a domain without an owner email (its
// mail goes to the admin) counts only its own inquiries. Reply time = answered_at - paid_at of each
// answered inquiry, over the owner's 100 most recent answers; the page shows the median rounded up
// to whole days once at least 3 are answered (typicalReplyDays in app/lib/response-window.ts).
import type { Domain } from "../../../db/schema";
import { typicalReplyDays } from "../../lib/response-window";
import { sql } from "kysely";
import { db } from "../db/database.server";
import { millisecondsBetween } from "../db/dialect.server";
import { perContentVersionMemo } from "../db/content-version.server";
import { AUTO_ACCEPT_VIA } from "../inquiries/messages.server";

const RECENT_ANSWERS = 100;

/** An answer the owner wrote or confirmed; an offer accepted by their rule says nothing of their reply time. */
const notAutoAccepted = (column: string) => sql<boolean>`coalesce(${sql.ref(column)}, '') <> ${AUTO_ACCEPT_VIA}`;

/** Milliseconds from payment to answer of the owner's (or the domain's) most recent answered inquiries. */
async function recentReplyTimes(owner: string, domainId: number): Promise<number[]> {
  const rows = owner
    ? await db
        .selectFrom("domains as d")
        .innerJoin("inquiries as i", "i.domain_id", "d.id")
        .select(millisecondsBetween("i.paid_at", "i.answered_at").as("ms"))
        .where(sql<string>`lower(trim(d.owner_email))`, "=", owner)
        .where("i.answered_at", "is not", null)
        .where("i.paid_at", "is not", null)
        .where(notAutoAccepted("i.answered_via"))
        .orderBy("i.answered_at", "desc")
        .limit(RECENT_ANSWERS)
        .execute()
    : await db
        .selectFrom("inquiries")
        .select(millisecondsBetween("paid_at", "answered_at").as("ms"))
        .where("domain_id", "=", domainId)
        .where("answered_at", "is not", null)
        .where("paid_at", "is not", null)
        .where(notAutoAccepted("answered_via"))
        .orderBy("answered_at", "desc")
        .limit(RECENT_ANSWERS)
        .execute();
  return rows.map((row) => Number(row.ms));
}

// One figure per owner serves all of the owner's domain pages: remembered while the content version
// (migrations 0030 and 0051: bumped by every write to domains' public columns and to answered inquiries,
// from any process) is the one it was computed at.
const remembered = perContentVersionMemo<number | null>();

/** Whole days (at least 1), or null while fewer than 3 of the owner's inquiries are answered. */
export async function ownerTypicalReplyDays(domain: Pick<Domain, "id" | "owner_email">): Promise<number | null> {
  const owner = domain.owner_email.trim().toLowerCase();
  return remembered(owner ? `owner ${owner}` : `domain ${domain.id}`, async () =>
    typicalReplyDays(await recentReplyTimes(owner, owner ? 0 : domain.id)),
  );
}
