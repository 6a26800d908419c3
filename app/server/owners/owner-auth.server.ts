// Owner sign-in by an emailed code, through remix-auth and remix-auth-totp. The strategy makes the
// 6-digit code and the one-click link and keeps the code's secret in an encrypted cookie (_totp); what
// it cannot do alone is made here with a row per issued code (owner_sign_in_codes): a code or link is
// usable once, expires by the server's clock, stops after a few wrong tries, and is valid in every
// process. Limits per address and per email answer 429 with Retry-After.
//
// Nothing tells an address that owns a domain from one that does not: both get the same answer after
// the same work (the code row is written for both); only an owner's code is mailed.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { createCookie, data, redirect } from "react-router";
import { Authenticator } from "remix-auth";
import { TOTPStrategy } from "remix-auth-totp";
import { z } from "zod";
import { now, nowIso } from "../runtime/clock.server";
import { db } from "../db/database.server";
import { env } from "../runtime/env.server";
import { queueEmail } from "../mail/mail.server";
import { publicOrigin } from "../inquiries/signed-links.server";
import { createRateLimit, type RateLimit } from "../http/rate-limit.server";
import { secureFor } from "../admin/session.server";
import { createOwnerSession } from "./owner-session.server";
import { normalizeEmail } from "../admin/users.server";
import { OWNER_SIGN_IN_TEXT as TEXT, type OwnerLinkError } from "../../lib/owner-forms";
import { ownerEmailIs } from "../catalog/domains.server";

export const CODE_MINUTES = 10;
const CODE_MS = CODE_MINUTES * 60 * 1000;
/** Wrong codes one issued code takes before it is spent. */
export const MAX_WRONG_CODES = 5;
export const MAGIC_LINK_PATH = "/owner/link";

const WINDOW_MS = 15 * 60 * 1000;
export const CODE_REQUEST_LIMIT = 5;
export const CODE_REQUEST_ADDRESS_LIMIT = 20;
export const CODE_CHECK_LIMIT = 10;
export const CODE_CHECK_ADDRESS_LIMIT = 30;
const requestsByEmail = createRateLimit({ name: "owner-code-email", limit: CODE_REQUEST_LIMIT, windowMs: WINDOW_MS });
const requestsByAddress = createRateLimit({
  name: "owner-code-address",
  limit: CODE_REQUEST_ADDRESS_LIMIT,
  windowMs: WINDOW_MS,
});
const checksByEmail = createRateLimit({ name: "owner-check-email", limit: CODE_CHECK_LIMIT, windowMs: WINDOW_MS });
const checksByAddress = createRateLimit({
  name: "owner-check-address",
  limit: CODE_CHECK_ADDRESS_LIMIT,
  windowMs: WINDOW_MS,
});

export const EmailSchema = z.object({
  email: z.email(TEXT.badEmail).max(254, TEXT.badEmail),
});
export const CodeSchema = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, TEXT.badCodeFormat),
});

/** remix-auth-totp's key: 64 hex characters, derived from the session secret every process shares. */
const totpSecret = createHash("sha256").update(`owner-sign-in:${env.sessionSecret}`).digest("hex");

/**
 * The codes this browser asked for, newest first, signed: which one the form's code is checked
 * against, and the earlier ones, so a code sent to another address is named as such.
 */
const pendingCookie = createCookie("owner_code", {
  httpOnly: true,
  sameSite: "lax",
  path: "/",
  secrets: [env.sessionSecret],
  // Outlives the codes it names, so a late code is told it expired rather than that none was asked for.
  maxAge: 60 * 60,
});
interface Pending {
  email: string;
  ids: string[];
}

export async function readPending(request: Request): Promise<Pending | null> {
  const value = (await pendingCookie.parse(request.headers.get("Cookie"))) as unknown;
  if (typeof value !== "object" || value === null) return null;
  const { email, ids } = value as Record<string, unknown>;
  if (typeof email !== "string" || !Array.isArray(ids) || !ids.every((id) => typeof id === "string")) return null;
  return { email, ids: ids as string[] };
}

function clearPending(request: Request): Promise<string> {
  return pendingCookie.serialize("", { maxAge: 0, expires: new Date(0), ...secureFor(request) });
}

function codeHash(id: string, code: string): string {
  return createHash("sha256").update(`${id}:${code}`).digest("hex");
}

function sameHash(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

export interface OwnerSignInFailure {
  step: "email" | "code";
  error: string;
  email: string;
}

/** What the strategy's callbacks did (the strategy answers with a redirect only). */
type Outcome = { issued?: string; session?: string };

function strategyFor(request: Request, outcome: Outcome) {
  return new TOTPStrategy<{ email: string }>(
    {
      secret: totpSecret,
      cookieOptions: { maxAge: CODE_MINUTES * 60, ...(secureFor(request).secure ? { secure: true } : {}) },
      totpGeneration: { digits: 6, charSet: "0123456789", period: CODE_MINUTES * 60 },
      magicLinkPath: MAGIC_LINK_PATH,
      emailSentRedirect: "/owner",
      successRedirect: "/owner",
      failureRedirect: "/owner",
      customErrors: {
        invalidEmail: TEXT.badEmail,
        invalidTotp: TEXT.wrongCode,
        expiredTotp: TEXT.expiredCode,
        rateLimitExceeded: TEXT.tooManyWrong,
        missingSessionEmail: TEXT.noPendingCode,
        missingSessionTotp: TEXT.noPendingCode,
      },
      sendTOTP: async ({ email, code, magicLink }) => {
        const id = await issueCode(email, code);
        const link = new URL(magicLink);
        link.searchParams.set("r", id);
        await mailCodeToOwner(email, code, `${publicOrigin()}${link.pathname}${link.search}`);
        outcome.issued = id;
      },
    },
    async ({ email, request: verified }) => {
      // The strategy checked the code against its cookie; the row makes it usable once, in any process.
      const pending = await readPending(verified);
      const id = pending?.ids[0];
      const sentTo = id ? await spendCode(id) : null;
      if (!sentTo) throw new Error(TEXT.usedCode);
      // The strategy's cookie carries the email in plain text, and its code is not bound to it: the session
      // is for the address the code was sent to (the row's), never for one the browser names.
      if (normalizeEmail(email) !== sentTo) throw new Error(TEXT.wrongCode);
      outcome.session = await createOwnerSession(verified, sentTo);
      return { email: sentTo };
    },
  );
}

const authenticator = new Authenticator<{ email: string }>();

// One strategy per request (its cookie's Secure flag follows the request); `use` and `authenticate`
// run in the same tick, so concurrent requests never meet each other's strategy.
async function runStrategy(request: Request): Promise<{ response: Response; outcome: Outcome; error: string | null }> {
  const outcome: Outcome = {};
  authenticator.use(strategyFor(request, outcome), "owner-code");
  try {
    await authenticator.authenticate("owner-code", request);
    throw new Error("remix-auth-totp always answers with a redirect");
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    return { response: thrown, outcome, error: strategyError(thrown) };
  }
}

/** The message remix-auth-totp left in its cookie on a failure redirect. */
function strategyError(response: Response): string | null {
  for (const cookie of response.headers.getSetCookie()) {
    const match = /^_totp=([^;]*)/.exec(cookie);
    if (match) return new URLSearchParams(decodeURIComponent(match[1]!)).get("error");
  }
  return null;
}

async function issueCode(email: string, code: string): Promise<string> {
  const id = randomBytes(16).toString("base64url");
  const createdAt = now();
  await db
    .deleteFrom("owner_sign_in_codes")
    .where("expires_at", "<=", new Date(createdAt.getTime() - CODE_MS).toISOString())
    .execute();
  await db
    .insertInto("owner_sign_in_codes")
    .values({
      id,
      email,
      code_hash: codeHash(id, code),
      created_at: createdAt.toISOString(),
      expires_at: new Date(createdAt.getTime() + CODE_MS).toISOString(),
    })
    .execute();
  return id;
}

async function ownsLiveDomain(email: string): Promise<boolean> {
  const row = await db
    .selectFrom("domains")
    .select("id")
    .where(ownerEmailIs(email))
    .where("deleted_at", "is", null)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

async function mailCodeToOwner(email: string, code: string, link: string): Promise<void> {
  if (!(await ownsLiveDomain(email))) return;
  await queueEmail({
    kind: "owner_sign_in_code",
    to: email,
    subject: `Your ${env.SITE_NAME} sign-in code: ${code}`,
    text: [
      `Your sign-in code for ${env.SITE_NAME} is:`,
      "",
      code,
      "",
      `Enter it on the sign-in page, or sign in with one click (in the browser you asked from):`,
      link,
      "",
      `The code and the link work once, for ${CODE_MINUTES} minutes. If you did not ask to sign in, ignore this email.`,
    ].join("\n"),
  });
}

/**
 * Marks the code used; returns the address it was sent to, or null when it was used already (by this or
 * another process) or has expired.
 */
async function spendCode(id: string): Promise<string | null> {
  const at = nowIso();
  const row = await db
    .updateTable("owner_sign_in_codes")
    .set({ used_at: at })
    .where("id", "=", id)
    .where("used_at", "is", null)
    .where("expires_at", ">", at)
    .returning("email")
    .executeTakeFirst();
  return row?.email ?? null;
}

async function limited(limits: Array<[RateLimit, string]>): Promise<number> {
  for (const [limit, key] of limits) {
    if (!(await limit.hit(key))) return limit.retryAfterSeconds(key);
  }
  return 0;
}

function refuse(failure: OwnerSignInFailure, status: number, headers: HeadersInit = {}) {
  return data(failure, { status, headers });
}

function withHeaders(response: Response, cookies: string[]): Response {
  const headers = new Headers(response.headers);
  for (const cookie of cookies) headers.append("Set-Cookie", cookie);
  // A 303 so a browser without JavaScript follows a form post with a GET.
  return redirect(headers.get("Location") ?? "/owner", { status: 303, headers });
}

/** "Email me a sign-in code". */
export async function requestCode(request: Request, clientAddress: string) {
  const form = await request.clone().formData();
  const typed = String(form.get("email") ?? "");
  const parsed = EmailSchema.safeParse({ email: typed.trim() });
  if (!parsed.success) return refuse({ step: "email", error: TEXT.badEmail, email: typed }, 400);
  const email = normalizeEmail(parsed.data.email);
  const retryAfter = await limited([
    [requestsByAddress, clientAddress],
    [requestsByEmail, email],
  ]);
  if (retryAfter > 0)
    return refuse({ step: "email", error: TEXT.tooManyRequests(retryAfter), email: typed }, 429, {
      "Retry-After": String(retryAfter),
    });
  // The strategy reads the email from the body: hand it the normalized one.
  const body = new URLSearchParams({ email });
  const normalized = new Request(request.url, {
    method: "POST",
    headers: { Cookie: request.headers.get("Cookie") ?? "", "Content-Type": "application/x-www-form-urlencoded" },
    body,
  });
  const { response, outcome, error } = await runStrategy(normalized);
  if (!outcome.issued) return refuse({ step: "email", error: error ?? TEXT.badEmail, email: typed }, 400);
  const previous = await readPending(request);
  const ids = [outcome.issued, ...(previous?.ids ?? [])].slice(0, 5);
  return withHeaders(response, [await pendingCookie.serialize({ email, ids }, secureFor(request))]);
}

type CodeCheck = { ok: true; id: string } | { ok: false; error: string };

/** The row checks that come before the strategy's: which code, whether it can still be used. */
async function checkIssuedCode(pending: Pending, code: string): Promise<CodeCheck> {
  const id = pending.ids[0] ?? "";
  const row = await db.selectFrom("owner_sign_in_codes").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) return { ok: false, error: TEXT.expiredCode };
  if (row.used_at) return { ok: false, error: TEXT.usedCode };
  if (row.expires_at <= nowIso()) return { ok: false, error: TEXT.expiredCode };
  if (row.failed_attempts >= MAX_WRONG_CODES) return { ok: false, error: TEXT.tooManyWrong };
  if (!sameHash(row.code_hash, codeHash(id, code))) {
    await db
      .updateTable("owner_sign_in_codes")
      .set((eb) => ({ failed_attempts: eb("failed_attempts", "+", 1) }))
      .where("id", "=", id)
      .execute();
    if (await sentToAnotherAddress(pending, code)) return { ok: false, error: TEXT.otherEmailCode(pending.email) };
    return { ok: false, error: TEXT.wrongCode };
  }
  return { ok: true, id };
}

/** Whether the code is one this browser asked for earlier, for another address. */
async function sentToAnotherAddress(pending: Pending, code: string): Promise<boolean> {
  const earlier = pending.ids.slice(1);
  if (earlier.length === 0) return false;
  const rows = await db
    .selectFrom("owner_sign_in_codes")
    .select(["id", "email", "code_hash"])
    .where("id", "in", earlier)
    .execute();
  return rows.some((row) => row.email !== pending.email && sameHash(row.code_hash, codeHash(row.id, code)));
}

/** "Sign in" with the code from the email. */
export async function signInWithCode(request: Request, clientAddress: string) {
  const form = await request.clone().formData();
  const typed = String(form.get("code") ?? "");
  const pending = await readPending(request);
  if (!pending) return refuse({ step: "email", error: TEXT.noPendingCode, email: "" }, 400);
  const parsed = CodeSchema.safeParse({ code: typed });
  if (!parsed.success) return refuse({ step: "code", error: TEXT.badCodeFormat, email: pending.email }, 400);
  const retryAfter = await limited([
    [checksByAddress, clientAddress],
    [checksByEmail, pending.email],
  ]);
  if (retryAfter > 0)
    return refuse({ step: "code", error: TEXT.tooManyChecks(retryAfter), email: pending.email }, 429, {
      "Retry-After": String(retryAfter),
    });
  const check = await checkIssuedCode(pending, parsed.data.code);
  if (!check.ok) return refuse({ step: "code", error: check.error, email: pending.email }, 400);
  const strategyRequest = new Request(request.url, {
    method: "POST",
    headers: { Cookie: request.headers.get("Cookie") ?? "", "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ code: parsed.data.code }),
  });
  const { response, outcome, error } = await runStrategy(strategyRequest);
  if (!outcome.session) {
    const cookie = response.headers.get("Set-Cookie");
    return refuse(
      { step: "code", error: error ?? TEXT.wrongCode, email: pending.email },
      400,
      cookie ? { "Set-Cookie": cookie } : {},
    );
  }
  return withHeaders(response, [outcome.session, await clearPending(request)]);
}

/** The emailed link: GET /owner/link?t=...&r=... in the browser that asked for the code. */
export async function signInWithLink(request: Request, clientAddress: string): Promise<Response> {
  const url = new URL(request.url);
  const pending = await readPending(request);
  const linkId = url.searchParams.get("r") ?? "";
  const failed = (error: OwnerLinkError) => redirect(`/owner?error=${error}`, 303);
  const row = /^[\w-]{10,40}$/.test(linkId)
    ? await db
        .selectFrom("owner_sign_in_codes")
        .select(["id", "used_at", "expires_at", "failed_attempts"])
        .where("id", "=", linkId)
        .executeTakeFirst()
    : undefined;
  if (!row) return failed("bad-link");
  if (row.used_at) return failed("used-link");
  if (row.expires_at <= nowIso()) return failed("expired-link");
  if (row.failed_attempts >= MAX_WRONG_CODES) return failed("too-many-wrong");
  if (!pending || !pending.ids.includes(linkId)) return failed("other-browser");
  if (pending.ids[0] !== linkId) return failed("link-replaced");
  if (
    await limited([
      [checksByAddress, clientAddress],
      [checksByEmail, pending.email],
    ])
  )
    return failed("rate-limited");
  const { response, outcome } = await runStrategy(request);
  if (!outcome.session) return failed((await spent(linkId)) ? "used-link" : "bad-link");
  return withHeaders(response, [outcome.session, await clearPending(request)]);
}

async function spent(id: string): Promise<boolean> {
  const row = await db.selectFrom("owner_sign_in_codes").select("used_at").where("id", "=", id).executeTakeFirst();
  return Boolean(row?.used_at);
}

/** Start over: forget the code this browser asked for. */
export async function forgetPendingCode(request: Request): Promise<Response> {
  return redirect("/owner", { status: 303, headers: { "Set-Cookie": await clearPending(request) } });
}
