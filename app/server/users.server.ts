import type { User } from "../../db/schema";
import { nowIso } from "./clock.server";
import { db } from "./db.server";
import { hashPassword } from "./passwords.server";

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserByEmail(email: string): Promise<User | undefined> {
  return db.selectFrom("users").selectAll().where("email", "=", normalizeEmail(email)).executeTakeFirst();
}

/** Creates the admin, or resets its password when it exists. */
export async function upsertAdmin(email: string, password: string): Promise<User> {
  const passwordHash = await hashPassword(password);
  const timestamp = nowIso();
  return db
    .insertInto("users")
    .values({ email: normalizeEmail(email), password_hash: passwordHash, created_at: timestamp, updated_at: timestamp })
    .onConflict((oc) => oc.column("email").doUpdateSet({ password_hash: passwordHash, updated_at: timestamp }))
    .returningAll()
    .executeTakeFirstOrThrow();
}
