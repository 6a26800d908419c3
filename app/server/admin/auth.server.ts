// Password sign-in (remix-auth 4 with remix-auth-form 3) and its limits. Every attempt is counted before its password is verified (so many
// concurrent posts cannot all pass the check), and verifications run through a small queue: each is a
// 128 MiB scrypt run on libuv's thread pool, which static files and compression share.
//
// Lockout follows OWASP's "device cookie" advice: a browser that has signed in as an admin carries a
// signed cookie naming that admin. Failures for an email from browsers without it lock out only such
// browsers; the admin's own browser has its own counter, so an attacker who knows the admin's email
// cannot keep the admin out from another address. Each address has its own limit as well.
import { randomBytes } from "node:crypto";
import { createCookie } from "react-router";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { LoginSchema, loginLimitedText, TEXT } from "../../lib/admin-forms";
import { env } from "../runtime/env.server";
import { hashPassword, verifyPassword } from "./passwords.server";
import { createRateLimit, type RateLimit } from "../http/rate-limit.server";
import { secureFor, type AdminUser } from "./session.server";
import { findUserByEmail, normalizeEmail } from "./users.server";
import { createWorkQueue, QueueFullError } from "../runtime/work-queue.server";

const WINDOW_MS = 15 * 60 * 1000;
export const SIGN_IN_ATTEMPT_LIMIT = 10;
const attemptsByIp = createRateLimit({ name: "sign-in-address", limit: SIGN_IN_ATTEMPT_LIMIT, windowMs: WINDOW_MS });
/** Attempts for an email from browsers that have not signed in as that admin before. */
const attemptsByEmail = createRateLimit({ name: "sign-in-email", limit: SIGN_IN_ATTEMPT_LIMIT, windowMs: WINDOW_MS });
/** Attempts from one browser that has signed in as that admin before. */
const attemptsByDevice = createRateLimit({ name: "sign-in-device", limit: SIGN_IN_ATTEMPT_LIMIT, windowMs: WINDOW_MS });
/** Two scrypt runs at once leave two of libuv's four threads for everything else. */
export const verifications = createWorkQueue({ concurrency: 2, maxWaiting: 8 });
const BUSY_RETRY_AFTER_SECONDS = 5;

// Path "/": with JavaScript the sign-in form posts to /admin.data, which Path=/admin would not cover.
const deviceCookie = createCookie("admin_device", {
  httpOnly: true,
  sameSite: "lax",
  path: "/",
  secrets: [env.sessionSecret],
  maxAge: 365 * 24 * 60 * 60,
});

interface Device {
  email: string;
  id: string;
}

export class LoginError extends Error {
  readonly status: number;
  readonly fields: Record<string, string>;
  readonly retryAfterSeconds: number;
  constructor(message: string, status: number, fields: Record<string, string> = {}, retryAfterSeconds = 0) {
    super(message);
    this.status = status;
    this.fields = fields;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

async function readDevice(request: Request): Promise<Device | null> {
  const value = (await deviceCookie.parse(request.headers.get("Cookie"))) as unknown;
  if (typeof value !== "object" || value === null) return null;
  const { email, id } = value as Record<string, unknown>;
  return typeof email === "string" && typeof id === "string" ? { email, id } : null;
}

// An unknown email still costs one scrypt run, so response time does not reveal which emails exist.
// The hash it is checked against is made at start (prepareSignIn), so the first unknown email after a
// restart costs one run, not two.
let dummyHash: Promise<string> | undefined;

/** The hash unknown emails are verified against, made once, at the cost new admins' hashes have. */
function dummyHashOnce(): Promise<string> {
  return (dummyHash ??= hashPassword("not-a-password", env.PASSWORD_HASH_COST));
}

/** Makes the dummy hash unknown emails are verified against; startApp waits for it. */
export async function prepareSignIn(): Promise<void> {
  await dummyHashOnce();
}

/**
 * Whether a Cookie header carries a valid device cookie (signed with the session secret): a browser
 * that has signed in as an admin before. The sign-in guard never refuses it.
 */
export async function hasDeviceCookie(cookieHeader: string | undefined): Promise<boolean> {
  if (!cookieHeader?.includes("admin_device=")) return false;
  return (await readDevice(new Request("http://local/", { headers: { Cookie: cookieHeader } }))) !== null;
}

export interface AdminSignIn {
  user: AdminUser;
  deviceCookie: string;
  legacyDeviceCookie: string;
}

const authenticator = new Authenticator<AdminSignIn>();

/**
 * Signs in through remix-auth's form strategy; throws LoginError with the message to show. Returns the
 * admin and the Set-Cookie value that marks this browser as the admin's device. The strategy reads the
 * request's form (when the sign-in guard read the body first, the request is made from its copy:
 * fetchRequestFrom in express.server.ts).
 */
export async function authenticateAdmin(request: Request, clientAddress: string): Promise<AdminSignIn> {
  // One strategy per sign-in, bound to this request's address and cookies: `use` and `authenticate`
  // run in the same tick, so concurrent sign-ins never meet each other's.
  authenticator.use(new FormStrategy<AdminSignIn>(({ form }) => verifySignIn(request, form, clientAddress)), "admin");
  return authenticator.authenticate("admin", request);
}

/** The strategy's verify: the limits counted first, then the password through the scrypt queue. */
async function verifySignIn(request: Request, form: FormData, clientAddress: string): Promise<AdminSignIn> {
  const parsed = LoginSchema.safeParse({
    email: String(form.get("email") ?? ""),
    password: String(form.get("password") ?? ""),
  });
  if (!parsed.success) {
    const fields: Record<string, string> = {};
    for (const issue of parsed.error.issues) fields[String(issue.path[0])] ??= issue.message;
    throw new LoginError(Object.values(fields)[0]!, 400, fields);
  }
  const email = normalizeEmail(parsed.data.email);
  const device = await readDevice(request);
  const counted: Array<[RateLimit, string]> = [
    [attemptsByIp, `login-ip:${clientAddress}`],
    device?.email === email
      ? [attemptsByDevice, `login-device:${device.id}`]
      : [attemptsByEmail, `login-email:${email}`],
  ];
  for (const [limit, key] of counted) {
    if (!(await limit.hit(key))) {
      const retryAfterSeconds = await limit.retryAfterSeconds(key);
      throw new LoginError(loginLimitedText(retryAfterSeconds), 429, {}, retryAfterSeconds);
    }
  }
  const user = await findUserByEmail(email);
  let valid: boolean;
  try {
    valid = await verifications.run(async () =>
      verifyPassword(parsed.data.password, user?.password_hash ?? (await dummyHashOnce())),
    );
  } catch (error) {
    if (!(error instanceof QueueFullError)) throw error;
    throw new LoginError(TEXT.loginBusy, 503, {}, BUSY_RETRY_AFTER_SECONDS);
  }
  if (!user || !valid) throw new LoginError(TEXT.loginFailed, 401);
  // A good password does not use up the limits.
  for (const [limit, key] of counted) await limit.undo(key);
  const deviceId = device?.email === email ? device.id : randomBytes(16).toString("base64url");
  return {
    user: { id: user.id, email: user.email },
    deviceCookie: await deviceCookie.serialize({ email, id: deviceId }, secureFor(request)),
    // Browsers signed in before the path changed hold a Path=/admin copy: it goes, the Path=/ one stays.
    legacyDeviceCookie: await deviceCookie.serialize("", {
      path: "/admin",
      maxAge: 0,
      expires: new Date(0),
      ...secureFor(request),
    }),
  };
}
