// Owner sign-in helpers for tests: a cookie jar that keeps what the server sets (as a browser without
// JavaScript would), the sign-in code and one-click link read from the email, and a signed-in owner.
import type { AppServer } from "./app-server";
import { waitFor } from "./http";
import { mailText } from "./refund-promise";
import type { ReceivedMail, TestSmtp } from "./smtp";
import { CookieJar } from "./cookie-jar";

export { CookieJar };

export interface Reply {
  status: number;
  headers: Headers;
  body: string;
  location: string | null;
}

/** A request from the jar's browser (no redirects followed); the answer's cookies go into the jar. */
export async function ownerRequest(
  app: Pick<AppServer, "url">,
  jar: CookieJar,
  path: string,
  options: { form?: Record<string, string>; ip?: string } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { Cookie: jar.header() };
  if (options.ip) headers["X-Forwarded-For"] = options.ip;
  if (options.form) headers["Content-Type"] = "application/x-www-form-urlencoded";
  const response = await fetch(new URL(path, app.url), {
    method: options.form ? "POST" : "GET",
    redirect: "manual",
    headers,
    body: options.form ? new URLSearchParams(options.form) : undefined,
  });
  jar.take(response.headers);
  return {
    status: response.status,
    headers: response.headers,
    body: await response.text(),
    location: response.headers.get("location"),
  };
}

/** The newest sign-in email to `email` after `seen` messages had arrived. */
export async function signInMail(smtp: TestSmtp, email: string, seen = 0): Promise<ReceivedMail> {
  return waitFor(
    () =>
      smtp.messages
        .slice(seen)
        .reverse()
        .find((mail) => mail.to.includes(email) && /sign-in code/i.test(mail.raw)),
    15_000,
    `sign-in email to ${email}`,
  );
}

export function codeIn(mail: ReceivedMail): string {
  const code = /^(\d{6})$/m.exec(mailText(mail))?.[1];
  if (!code) throw new Error(`no code in:\n${mailText(mail)}`);
  return code;
}

/** The one-click link's path and query on the test server. */
export function signInLinkIn(mail: ReceivedMail): string {
  const match = /(https?:\/\/\S+\/owner\/link\?\S+)/.exec(mailText(mail));
  if (!match) throw new Error(`no sign-in link in:\n${mailText(mail)}`);
  const url = new URL(match[1]!);
  return url.pathname + url.search;
}

/** Signs an owner in over HTTP with the emailed code; returns the browser's jar. */
export async function signInOwner(
  app: Pick<AppServer, "url">,
  smtp: TestSmtp,
  email: string,
  ip = "10.9.0.1",
): Promise<CookieJar> {
  const jar = new CookieJar();
  const seen = smtp.messages.length;
  const asked = await ownerRequest(app, jar, "/owner", { form: { intent: "send-code", email }, ip });
  if (asked.status !== 303) throw new Error(`send-code answered ${asked.status}: ${asked.body.slice(0, 300)}`);
  const code = codeIn(await signInMail(smtp, email.trim().toLowerCase(), seen));
  const signedIn = await ownerRequest(app, jar, "/owner", { form: { intent: "sign-in", code }, ip });
  if (signedIn.status !== 303 || !jar.cookies.has("owner_session"))
    throw new Error(`sign-in answered ${signedIn.status}: ${signedIn.body.slice(0, 300)}`);
  return jar;
}
