import type { IncomingMessage } from "node:http";
import { env } from "../env.server";
import { clientIp } from "../rate-limit.server";

/** `clientIp` for a raw Node request answered before express (the live-fee stream). */
export function clientIpOfRaw(req: IncomingMessage): string {
  const headers = new Headers({ "x-real-client-ip": req.socket.remoteAddress ?? "unknown" });
  const forwarded = req.headers["x-forwarded-for"];
  if (forwarded) headers.set("x-forwarded-for", Array.isArray(forwarded) ? forwarded.join(", ") : forwarded);
  return clientIp(new Request("http://local/", { headers }));
}

/**
 * The scheme a trusted proxy reports, as the page cache's key needs it: "" when proxies are not
 * trusted (pages then ignore X-Forwarded-Proto), "http"/"https" when they are, null for any other
 * value (such a request is not cached). One place to follow TRUST_PROXY's meaning.
 */
export function trustedForwardedProto(req: IncomingMessage): string | null {
  if (env.TRUST_PROXY === "false") return "";
  const header = req.headers["x-forwarded-proto"];
  if (header === undefined) return "";
  const first = (Array.isArray(header) ? header[0]! : header).split(",")[0]!.trim().toLowerCase();
  return first === "http" || first === "https" ? first : null;
}
