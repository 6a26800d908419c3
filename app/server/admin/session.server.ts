// Server-side admin sessions: the cookie holds a random token, the sessions table holds its SHA-256,
// so signing out (deleting the row) revokes the session everywhere and a database copy grants nothing.
import { createHash, randomBytes } from "node:crypto";
import { createCookie, redirect } from "react-router";
import type { User } from "../../../db/schema";
import { now, nowIso } from "../runtime/clock.server";
import { db } from "../db/database.server";
import { env } from "../runtime/env.server";

const SESSION_DAYS = 14;

const sessionCookie = createCookie("admin_session", {
  httpOnly: true,
  sameSite: "lax",
  path: "/",
  secure: env.PUBLIC_URL?.startsWith("https:") ?? false,
  secrets: [env.sessionSecret],
  maxAge: SESSION_DAYS * 24 * 60 * 60,
});

export type AdminUser = Pick<User, "id" | "email">;

function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

async function readToken(request: Request): Promise<string | null> {
  const value = await sessionCookie.parse(request.headers.get("Cookie"));
  return typeof value === "string" && value.length > 0 ? value : null;
}

/** Starts a session for the user; returns the Set-Cookie header value. */
export async function createUserSession(userId: number): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const createdAt = now();
  const expiresAt = new Date(createdAt.getTime() + SESSION_DAYS * 24 * 60 * 60 * 1000);
  await db.deleteFrom("sessions").where("expires_at", "<=", createdAt.toISOString()).execute();
  await db
    .insertInto("sessions")
    .values({ id: hashToken(token), user_id: userId, created_at: createdAt.toISOString(), expires_at: expiresAt.toISOString() })
    .execute();
  return sessionCookie.serialize(token);
}

/** The signed-in admin, or null for an anonymous, expired or revoked session. */
export async function getAdminUser(request: Request): Promise<AdminUser | null> {
  const token = await readToken(request);
  if (!token) return null;
  const row = await db
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.user_id")
    .select(["users.id", "users.email"])
    .where("sessions.id", "=", hashToken(token))
    .where("sessions.expires_at", ">", nowIso())
    .executeTakeFirst();
  return row ?? null;
}

/** Guard for every admin loader and action: a signed-out request is sent to the login screen. */
export async function requireAdmin(request: Request): Promise<AdminUser> {
  const user = await getAdminUser(request);
  if (!user) throw redirect("/admin", 303);
  return user;
}

/** Deletes the session row; returns the Set-Cookie header value that clears the cookie. */
export async function destroyUserSession(request: Request): Promise<string> {
  const token = await readToken(request);
  if (token) await db.deleteFrom("sessions").where("id", "=", hashToken(token)).execute();
  return sessionCookie.serialize("", { maxAge: 0, expires: new Date(0) });
}

/** "Sign out everywhere": deletes every session of the user; returns the Set-Cookie value that clears this one. */
export async function destroyAllUserSessions(userId: number): Promise<string> {
  await db.deleteFrom("sessions").where("user_id", "=", userId).execute();
  return sessionCookie.serialize("", { maxAge: 0, expires: new Date(0) });
}
