import type { IncomingMessage, ServerResponse } from "node:http";
import { TEXT } from "../../lib/admin-forms";
import { getAdminUser } from "../admin/session.server";
import type { RequestValues } from "./request-context.server";

/*
 * Anonymous posts to /admin (sign-ins) in flight, per address and in all, counted the moment they
 * arrive. A flood beyond that is answered here with a few bytes, before express and React Router: a
 * rendered refusal costs more than a cached page, so 300 rendered 429s would keep every visitor waiting
 * for seconds. Within the bounds the sign-in itself applies its limits and its verification queue.
 */
const MAX_IN_FLIGHT_PER_ADDRESS = 10;
const MAX_IN_FLIGHT_TOTAL = 16;
const RETRY_AFTER_SECONDS = 5;

type Next = () => void;

const inFlight = new Map<string, number>();
let total = 0;
let refused = 0;

export function signInGuardStats() {
  return { inFlight: total, refused };
}

function isSignInPost(req: IncomingMessage): boolean {
  if (req.method !== "POST") return false;
  const url = req.url ?? "";
  const path = url.split("?", 1)[0];
  return path === "/admin" || path === "/admin.data";
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
  res.end(`<!doctype html><meta charset="utf-8"><title>Admin Login</title><p role="alert">${message}</p><p><a href="/admin">Back to sign in</a></p>\n`);
}

async function isSignedIn(cookie: string | undefined): Promise<boolean> {
  if (!cookie?.includes("admin_session=")) return false;
  return (await getAdminUser(new Request("http://local/", { headers: { Cookie: cookie } }))) !== null;
}

export function createSignInGuard() {
  return (req: IncomingMessage, res: ServerResponse, values: RequestValues, next: Next): void => {
    if (!isSignInPost(req)) return next();
    void isSignedIn(req.headers.cookie).then(
      (signedIn) => {
        if (signedIn) return next();
        const address = values.clientAddress;
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
      },
      () => next(),
    );
  };
}
