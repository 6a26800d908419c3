// The admin's list of owners: every owner email on a live domain (grouped trimmed and lower-cased, as
// owners sign in), with its domain count, last sign-in and open sessions.
import { sql } from "kysely";
import { db } from "../db/database.server";
import { nowIso } from "../runtime/clock.server";

export interface OwnerSummary {
  email: string;
  domains: number;
  lastSignInAt: string | null;
  sessions: number;
}

export const OWNERS_SHOWN = 500;

export async function listOwners(): Promise<{ owners: OwnerSummary[]; total: number }> {
  const owner = sql<string>`lower(trim(owner_email))`;
  const grouped = db
    .selectFrom("domains")
    .select([owner.as("email"), (eb) => eb.fn.countAll<number>().as("domains")])
    .where("deleted_at", "is", null)
    .where(sql<string>`trim(owner_email)`, "!=", "")
    .groupBy(owner);
  const rows = await db
    .selectFrom(grouped.as("o"))
    .leftJoin("owner_sign_ins as s", "s.email", "o.email")
    .select([
      "o.email",
      "o.domains",
      "s.last_sign_in_at",
      (eb) =>
        eb
          .selectFrom("owner_sessions")
          .select((inner) => inner.fn.countAll<number>().as("n"))
          .whereRef("owner_sessions.email", "=", "o.email")
          .where("owner_sessions.expires_at", ">", nowIso())
          .as("sessions"),
    ])
    .orderBy("o.email")
    .limit(OWNERS_SHOWN)
    .execute();
  const { total } = await db
    .selectFrom(grouped.as("o"))
    .select((eb) => eb.fn.countAll<number>().as("total"))
    .executeTakeFirstOrThrow();
  return {
    owners: rows.map((row) => ({
      email: row.email,
      domains: Number(row.domains),
      lastSignInAt: row.last_sign_in_at ?? null,
      sessions: Number(row.sessions ?? 0),
    })),
    total: Number(total),
  };
}
