// Server-side admin sessions: the cookie holds a random token, the sessions table holds its SHA-256,
// so signing out (deleting the row) revokes the session everywhere and a database copy grants nothing.
import { createHash, randomBytes } from "node:crypto";
import { createCookie, redirect } from "react-router";
import type { User } from "../../../db/schema";
import { now, nowIso } from "../runtime/clock.server";
import { db } from "../db/database.server";
import { env } from "../runtime/env.server";

const SESSION_DAYS = 14;

// Secure when the request came over https (PUBLIC_URL on https, or a trusted proxy's X-Forwarded-Proto):
// each Set-Cookie takes it from the request (secureFor).
const sessionCookie = createCookie("admin_session", {
  httpOnly: true,
  sameSite: "lax",
  path: "/",
  secrets: [env.sessionSecret],
  maxAge: SESSION_DAYS * 24 * 60 * 60,
});

export type AdminUser = Pick<User, "id" | "email">;

/**
 * Cookie options for a response to this request: Secure when the browser reached us over https, as
 * server.ts decided it (a TLS proxy TRUST_PROXY trusts, or an https PUBLIC_URL) and put in request.url.
 */
export function secureFor(request: Request): { secure: boolean } {
  return { secure: new URL(request.url).protocol === "https:" };
}

function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

async function readToken(request: Request): Promise<string | null> {
  const value = await sessionCookie.parse(request.headers.get("Cookie"));
  return typeof value === "string" && value.length > 0 ? value : null;
}

/** Starts a session for the user; returns the Set-Cookie header value. */
export async function createUserSession(request: Request, userId: number): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const createdAt = now();
  const expiresAt = new Date(createdAt.getTime() + SESSION_DAYS * 24 * 60 * 60 * 1000);
  await db.deleteFrom("sessions").where("expires_at", "<=", createdAt.toISOString()).execute();
  await db
    .insertInto("sessions")
    .values({
      id: hashToken(token),
      user_id: userId,
      created_at: createdAt.toISOString(),
      expires_at: expiresAt.toISOString(),
    })
    .execute();
  return sessionCookie.serialize(token, secureFor(request));
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
  return sessionCookie.serialize("", { maxAge: 0, expires: new Date(0), ...secureFor(request) });
}

/** "Sign out everywhere": deletes every session of the user; returns the Set-Cookie value that clears this one. */
export async function destroyAllUserSessions(request: Request, userId: number): Promise<string> {
  await db.deleteFrom("sessions").where("user_id", "=", userId).execute();
  return sessionCookie.serialize("", { maxAge: 0, expires: new Date(0), ...secureFor(request) });
}
