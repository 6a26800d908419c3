// Password sign-in: remix-auth's FormStrategy verifies the form; the session itself is ours
// (session.server.ts), because remix-auth v4 does not store sessions.
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { LoginSchema, TEXT } from "../lib/admin-forms";
import { hashPassword, verifyPassword } from "./passwords.server";
import { clientIp, createRateLimit } from "./rate-limit.server";
import type { AdminUser } from "./session.server";
import { findUserByEmail, normalizeEmail } from "./users.server";

const WINDOW_MS = 15 * 60 * 1000;
const failuresByIp = createRateLimit({ limit: 10, windowMs: WINDOW_MS });
const failuresByEmail = createRateLimit({ limit: 10, windowMs: WINDOW_MS });

export class LoginError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly fields: Record<string, string> = {},
    readonly retryAfterSeconds = 0,
  ) {
    super(message);
  }
}

// An unknown email still costs one scrypt run, so response time does not reveal which emails exist.
let dummyHash: Promise<string> | undefined;

const authenticator = new Authenticator<AdminUser>();
authenticator.use(
  new FormStrategy(async ({ form, request }) => {
    const parsed = LoginSchema.safeParse({ email: String(form.get("email") ?? ""), password: String(form.get("password") ?? "") });
    if (!parsed.success) {
      const fields: Record<string, string> = {};
      for (const issue of parsed.error.issues) fields[String(issue.path[0])] ??= issue.message;
      throw new LoginError(Object.values(fields)[0]!, 400, fields);
    }
    const email = normalizeEmail(parsed.data.email);
    const ipKey = `login-ip:${clientIp(request)}`;
    const emailKey = `login-email:${email}`;
    for (const [limit, key] of [[failuresByIp, ipKey], [failuresByEmail, emailKey]] as const) {
      if (limit.isLimited(key)) throw new LoginError(TEXT.loginLimited, 429, {}, limit.retryAfterSeconds(key));
    }
    const user = await findUserByEmail(email);
    const valid = await verifyPassword(parsed.data.password, user?.password_hash ?? (await (dummyHash ??= hashPassword("not-a-password"))));
    if (!user || !valid) {
      failuresByIp.hit(ipKey);
      failuresByEmail.hit(emailKey);
      throw new LoginError(TEXT.loginFailed, 401);
    }
    failuresByEmail.reset(emailKey);
    return { id: user.id, email: user.email };
  }),
  "form",
);

/** Verifies the posted email and password; throws LoginError with the message to show. */
export async function authenticateAdmin(request: Request): Promise<AdminUser> {
  return authenticator.authenticate("form", request);
}
