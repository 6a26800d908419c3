// Owners' sessions, kept like the admin's (app/server/admin/session.server.ts): the cookie holds a
// random token, owner_sessions its SHA-256, so deleting the rows signs an owner out everywhere. The
// cookie has its own name: an owner session is never an admin session, nor the other way round.
import { createHash, randomBytes } from "node:crypto";
import { createCookie, data, redirect } from "react-router";
import { now, nowIso } from "../runtime/clock.server";
import { db } from "../db/database.server";
import { env } from "../runtime/env.server";
import { secureFor } from "../admin/session.server";
import { isOwnerSignInOn } from "./owner-settings.server";
import { normalizeEmail } from "../admin/users.server";

const SESSION_DAYS = 14;

const sessionCookie = createCookie("owner_session", {
  httpOnly: true,
  sameSite: "lax",
  path: "/",
  secrets: [env.sessionSecret],
  maxAge: SESSION_DAYS * 24 * 60 * 60,
});

export interface Owner {
  /** Trimmed and lower-cased: matched against lower(trim(domains.owner_email)). */
  email: string;
}

function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

async function readToken(request: Request): Promise<string | null> {
  const value = await sessionCookie.parse(request.headers.get("Cookie"));
  return typeof value === "string" && value.length > 0 ? value : null;
}

/** Starts a session for the owner and records the sign-in; returns the Set-Cookie header value. */
export async function createOwnerSession(request: Request, email: string): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const createdAt = now();
  const expiresAt = new Date(createdAt.getTime() + SESSION_DAYS * 24 * 60 * 60 * 1000);
  const owner = normalizeEmail(email);
  await db.deleteFrom("owner_sessions").where("expires_at", "<=", createdAt.toISOString()).execute();
  await db
    .insertInto("owner_sessions")
    .values({
      id: hashToken(token),
      email: owner,
      created_at: createdAt.toISOString(),
      expires_at: expiresAt.toISOString(),
    })
    .execute();
  await db
    .insertInto("owner_sign_ins")
    .values({ email: owner, last_sign_in_at: createdAt.toISOString() })
    .onConflict((oc) => oc.column("email").doUpdateSet({ last_sign_in_at: createdAt.toISOString() }))
    .execute();
  return sessionCookie.serialize(token, secureFor(request));
}

/** The signed-in owner, or null (anonymous, expired or revoked; turning owner sign-in off deletes every session). */
export async function getOwner(request: Request): Promise<Owner | null> {
  const token = await readToken(request);
  if (!token) return null;
  const row = await db
    .selectFrom("owner_sessions")
    .select("email")
    .where("id", "=", hashToken(token))
    .where("expires_at", ">", nowIso())
    .executeTakeFirst();
  return row ? { email: row.email } : null;
}

/**
 * Guard for the owner's pages other than /owner itself: signed out goes to the sign-in form; with owner
 * sign-in turned off every owner page is a 404.
 */
export async function requireOwner(request: Request): Promise<Owner> {
  if (!(await isOwnerSignInOn())) throw data(null, { status: 404 });
  const owner = await getOwner(request);
  if (!owner) throw redirect("/owner", 303);
  return owner;
}

/** Deletes this session's row; returns the Set-Cookie value that clears the cookie. */
export async function destroyOwnerSession(request: Request): Promise<string> {
  const token = await readToken(request);
  if (token) await db.deleteFrom("owner_sessions").where("id", "=", hashToken(token)).execute();
  return sessionCookie.serialize("", { maxAge: 0, expires: new Date(0), ...secureFor(request) });
}

/** The admin's "Sign out everywhere" for one owner; how many sessions ended. */
export async function destroyOwnerSessionsOf(email: string): Promise<number> {
  const result = await db.deleteFrom("owner_sessions").where("email", "=", normalizeEmail(email)).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Owner sign-in turned off: every owner session ends. */
export async function destroyAllOwnerSessions(): Promise<void> {
  await db.deleteFrom("owner_sessions").execute();
}
