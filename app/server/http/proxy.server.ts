// Who is asking, and over what: the client address and the protocol a request reached us with, seen
// through the reverse proxies TRUST_PROXY names. Express's "trust proxy" rules (proxy-addr): the client
// is the rightmost X-Forwarded-For hop that is not a trusted proxy, so whatever a client writes into
// the header itself (it arrives first, on the left) is never believed.
import type { IncomingMessage } from "node:http";
import type { TLSSocket } from "node:tls";
import proxyaddr from "proxy-addr";

export type TrustFunction = (address: string, hop: number) => boolean;

const NAMED_RANGES = new Set(["loopback", "linklocal", "uniquelocal"]);

/**
 * TRUST_PROXY much as express's `trust proxy` takes it: "false" (none), a hop count, or a
 * comma-separated list of addresses, CIDR ranges and the names loopback, linklocal, uniquelocal. "true"
 * trusts the one proxy in front of the app, whatever its address (as "1"), not every hop as express
 * does: nginx ($proxy_add_x_forwarded_for) and Caddy append to what the client sent, so trusting every
 * hop would take the leftmost address, which the client wrote. A chain of proxies needs a hop count or
 * their addresses. Throws an Error describing what is wrong with the value.
 */
export function parseTrustProxy(value: string): TrustFunction {
  const text = value.trim().toLowerCase();
  if (text === "true") return (_address, hop) => hop < 1;
  if (text === "false" || text === "") return () => false;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > 100) throw new Error("a hop count must be at most 100");
    return (_address, hop) => hop < hops;
  }
  const entries = text.split(",").map((entry) => entry.trim());
  for (const entry of entries) {
    if (entry === "") throw new Error("an empty entry in the list");
    if (!NAMED_RANGES.has(entry) && !/^[0-9a-f:.]+(\/\d{1,3}|\/[0-9.]+)?$/.test(entry)) {
      throw new Error(`"${entry}" is not an address, a CIDR range, loopback, linklocal or uniquelocal`);
    }
  }
  try {
    return proxyaddr.compile(entries);
  } catch (error) {
    throw new Error((error as Error).message, { cause: error });
  }
}

export interface RequestOrigin {
  /** The client's address as the trusted proxies saw it. */
  clientAddress: string;
  /** The scheme the browser used: a trusted proxy's X-Forwarded-Proto, else https when PUBLIC_URL is https. */
  protocol: "http" | "https";
}

function firstValue(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  return value?.split(",")[0]?.trim().toLowerCase();
}

/**
 * Reads a request's client address and protocol. With PUBLIC_URL on https the app is behind a TLS
 * proxy (or terminates TLS itself): requests count as https unless a trusted proxy says otherwise, so
 * the origin check of form posts, Secure cookies, HSTS and absolute URLs all agree with the browser.
 */
export function createRequestOrigin(options: {
  trustProxy: string;
  publicUrl?: string;
}): (req: IncomingMessage) => RequestOrigin {
  const trust = parseTrustProxy(options.trustProxy);
  const publicHttps = options.publicUrl?.toLowerCase().startsWith("https://") ?? false;
  return (req) => {
    const socketAddress = req.socket.remoteAddress ?? "unknown";
    // No X-Forwarded-For (every request not through a proxy): the socket's address, with no parsing.
    const clientAddress =
      req.socket.remoteAddress && req.headers["x-forwarded-for"] !== undefined ? proxyaddr(req, trust) : socketAddress;
    let protocol: RequestOrigin["protocol"] = (req.socket as TLSSocket).encrypted
      ? "https"
      : publicHttps
        ? "https"
        : "http";
    if (req.socket.remoteAddress && trust(req.socket.remoteAddress, 0)) {
      const forwarded = firstValue(req.headers["x-forwarded-proto"]);
      if (forwarded === "https" || forwarded === "http") protocol = forwarded;
    }
    return { clientAddress, protocol };
  };
}
