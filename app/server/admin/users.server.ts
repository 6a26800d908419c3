import type { User } from "../../../db/schema";
import { nowIso } from "../runtime/clock.server";
import { env } from "../runtime/env.server";
import { db } from "../db/database.server";
import { inTransaction } from "../db/dialect.server";
import { newPasswordProblem } from "./password-policy.server";
import { hashPassword, verifyPassword } from "./passwords.server";

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserByEmail(email: string): Promise<User | undefined> {
  return db.selectFrom("users").selectAll().where("email", "=", normalizeEmail(email)).executeTakeFirst();
}

export class PasswordPolicyError extends Error {}

/**
 * Creates the admin, or sets its password when it exists. A password that is already the stored one
 * changes nothing (ADMIN_PASSWORD is applied at every start); a new one must pass the policy
 * (PasswordPolicyError) and ends every session of that admin.
 */
export async function upsertAdmin(
  email: string,
  password: string,
): Promise<{ user: User; changed: boolean; sessionsEnded: number }> {
  const existing = await findUserByEmail(email);
  if (existing && (await verifyPassword(password, existing.password_hash)))
    return { user: existing, changed: false, sessionsEnded: 0 };
  const problem = await newPasswordProblem(password);
  if (problem) throw new PasswordPolicyError(`the new password ${problem}`);
  const passwordHash = await hashPassword(password, env.PASSWORD_HASH_COST);
  const timestamp = nowIso();
  return inTransaction(async (trx) => {
    const user = await trx
      .insertInto("users")
      .values({
        email: normalizeEmail(email),
        password_hash: passwordHash,
        created_at: timestamp,
        updated_at: timestamp,
      })
      .onConflict((oc) => oc.column("email").doUpdateSet({ password_hash: passwordHash, updated_at: timestamp }))
      .returningAll()
      .executeTakeFirstOrThrow();
    const ended = await trx.deleteFrom("sessions").where("user_id", "=", user.id).executeTakeFirst();
    return { user, changed: true, sessionsEnded: Number(ended.numDeletedRows) };
  });
}
