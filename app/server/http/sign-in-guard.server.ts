import type { IncomingMessage, ServerResponse } from "node:http";
import { TEXT } from "../../lib/admin-forms";
import { hasDeviceCookie } from "../admin/auth.server";
import { getAdminUser } from "../admin/session.server";
import { env } from "../runtime/env.server";
import { lingerOnClose } from "./express.server";
import type { RequestValues } from "./request-context.server";

/*
 * Anonymous posts to /admin (sign-ins) in flight, per address and in all. A flood beyond that is
 * answered here with a few bytes, before express and React Router: a rendered refusal costs more than
 * a cached page, so 300 rendered 429s would keep every visitor waiting for seconds. Within the bounds
 * the sign-in itself applies its limits and its verification queue.
 *
 * A post is read here first, within SIGN_IN_BODY_DEADLINE_MS (408 after), and counts only once its body
 * is in: bodies trickled a byte at a time hold no place, so they cannot keep other sign-ins out. A
 * browser with a valid device cookie (it signed in as an admin before) is never refused here.
 */
const MAX_IN_FLIGHT_PER_ADDRESS = 10;
const MAX_IN_FLIGHT_TOTAL = 16;
const RETRY_AFTER_SECONDS = 5;
export const SIGN_IN_BODY_DEADLINE_MS = 10_000;
/** A sign-in form is a few hundred bytes; an anonymous post to /admin larger than this is refused. */
const MAX_SIGN_IN_BODY_BYTES = 64 * 1024;

type Next = () => void;

const inFlight = new Map<string, number>();
let total = 0;
let refused = 0;
let timedOut = 0;

export function signInGuardStats() {
  return { inFlight: total, refused, timedOut };
}

/**
 * Whether a request is a post to the admin page as React Router would route it: any case, trailing
 * slashes, percent-encoding and dot segments, and its data request (/admin.data).
 */
export function isSignInPost(req: Pick<IncomingMessage, "method" | "url">): boolean {
  if (req.method !== "POST") return false;
  let path: string;
  try {
    path = decodeURIComponent(new URL(req.url ?? "", "http://local").pathname);
  } catch {
    return false;
  }
  path = path
    .toLowerCase()
    .replace(/\.data$/, "")
    .replace(/\/+$/, "");
  return path === "/admin";
}

function refuse(res: ServerResponse, status: 429 | 503): void {
  refused += 1;
  const message = status === 429 ? TEXT.loginTooManyAtOnce : TEXT.loginBusy;
  res.writeHead(status, {
    "Content-Type": "text/html; charset=utf-8",
    "Cache-Control": "no-store",
    "Retry-After": String(RETRY_AFTER_SECONDS),
    Connection: "close",
  });
  res.end(
    `<!doctype html><meta charset="utf-8"><title>Admin Login</title><p role="alert">${message}</p><p><a href="/admin">Back to sign in</a></p>\n`,
  );
}

/** A plain refusal that closes the connection once answered (the client may still be sending). */
function refuseBody(req: IncomingMessage, res: ServerResponse, status: 408 | 413, message: string): void {
  if (res.headersSent) return void res.destroy();
  lingerOnClose(req);
  res.writeHead(status, {
    "Content-Type": "text/plain; charset=utf-8",
    "Cache-Control": "no-store",
    Connection: "close",
  });
  res.end(`${message}\n`);
}

async function isSignedIn(cookie: string | undefined): Promise<boolean> {
  if (!cookie?.includes("admin_session=")) return false;
  return (await getAdminUser(new Request("http://local/", { headers: { Cookie: cookie } }))) !== null;
}

/**
 * Reads a sign-in body into memory (kept in the request values: express and React Router take it from there), or answers
 * 408 when it is not in within the deadline and 413 when it is too large. Resolves null when answered.
 */
function readBody(req: IncomingMessage, res: ServerResponse, deadlineAt: number): Promise<Buffer | null> {
  const limit = Math.min(env.MAX_BODY_BYTES, MAX_SIGN_IN_BODY_BYTES);
  return new Promise((resolve) => {
    const declared = req.headers["content-length"];
    if (declared !== undefined && /^\d{1,16}$/.test(declared) && Number(declared) > limit) {
      refuseBody(req, res, 413, `Request body too large (limit ${limit} bytes)`);
      return resolve(null);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (body: Buffer | null) => {
      clearTimeout(timer);
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      res.off("close", onClose);
      resolve(body);
    };
    const timer = setTimeout(
      () => {
        timedOut += 1;
        refuseBody(req, res, 408, "Request body not received in time");
        finish(null);
      },
      Math.max(0, deadlineAt - Date.now()),
    );
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      refuseBody(req, res, 413, `Request body too large (limit ${limit} bytes)`);
      finish(null);
    };
    const onEnd = () => finish(Buffer.concat(chunks));
    const onError = () => finish(null);
    const onClose = () => finish(null);
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
    res.on("close", onClose);
  });
}

function admit(res: ServerResponse, address: string, next: Next): void {
  const fromAddress = inFlight.get(address) ?? 0;
  if (fromAddress >= MAX_IN_FLIGHT_PER_ADDRESS) return refuse(res, 429);
  if (total >= MAX_IN_FLIGHT_TOTAL) return refuse(res, 503);
  inFlight.set(address, fromAddress + 1);
  total += 1;
  res.once("close", () => {
    total -= 1;
    const left = (inFlight.get(address) ?? 1) - 1;
    if (left > 0) inFlight.set(address, left);
    else inFlight.delete(address);
  });
  next();
}

export function createSignInGuard() {
  return (req: IncomingMessage, res: ServerResponse, values: RequestValues, next: Next): void => {
    if (!isSignInPost(req)) return next();
    const deadlineAt = Date.now() + SIGN_IN_BODY_DEADLINE_MS;
    void (async () => {
      if (await isSignedIn(req.headers.cookie)) return next();
      const ownDevice = await hasDeviceCookie(req.headers.cookie);
      const body = await readBody(req, res, deadlineAt);
      if (!body) return;
      values.signInBody = body;
      if (ownDevice) return next();
      admit(res, values.clientAddress, next);
    })().catch(() => next());
  };
}
