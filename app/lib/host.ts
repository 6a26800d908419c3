// Host header rules, pure so they can be unit tested. A Host header is untrusted input: anything
// that is not a plain host name or address (with an optional port) is "no host", never an error.
import { isValidDomainName, withoutWww } from "./domain-name";

const MAX_HOST_HEADER_LENGTH = 260;
const NAME_WITH_PORT = /^([a-z0-9.-]+)(?::(\d{1,5}))?$/;
const IPV6_WITH_PORT = /^(\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/;

/**
 * The site name a Host header asks for: lower-case, without port, trailing dot or leading "www.".
 * Returns null for a missing or malformed header ("[::1", "a..b", "evil.com@x", 300 characters).
 */
export function hostNameFromHeader(value: string | null | undefined): string | null {
  if (!value || value.length > MAX_HOST_HEADER_LENGTH) return null;
  const header = value.trim().toLowerCase();
  const ipv6 = IPV6_WITH_PORT.exec(header);
  if (ipv6) return validPort(ipv6[2]) ? ipv6[1]! : null;
  const match = NAME_WITH_PORT.exec(header);
  if (!match || !validPort(match[2])) return null;
  const name = withoutWww(match[1]!.replace(/\.$/, ""));
  return isValidDomainName(name) ? name : null;
}

function validPort(port: string | undefined): boolean {
  return port === undefined || Number(port) <= 65535;
}

/** The host names a URL or a comma-separated host list names, normalised like a Host header. */
export function hostNamesFromConfig(publicUrl: string | undefined, extraHosts: string | undefined): string[] {
  const names: string[] = [];
  if (publicUrl) {
    try {
      const name = hostNameFromHeader(new URL(publicUrl).host);
      if (name) names.push(name);
    } catch {
      // env.server.ts already rejected a malformed PUBLIC_URL.
    }
  }
  for (const entry of (extraHosts ?? "").split(",")) {
    const raw = entry
      .trim()
      .replace(/^[a-z][a-z0-9+.-]*:\/\//i, "")
      .replace(/\/.*$/, "");
    const name = hostNameFromHeader(raw);
    if (name) names.push(name);
  }
  return names;
}

/**
 * Where absolute links point: the public URL's origin when one is set, else the origin the request came
 * in on when its Host is sane, else http://localhost.
 */
export function siteOriginFor(request: Request, publicUrl: string | undefined): string {
  if (publicUrl) return new URL(publicUrl).origin;
  if (!hostNameFromHeader(request.headers.get("host"))) return "http://localhost";
  // A Request's url is a parsed URL's href, with a path and never a user: an http(s) origin is what comes
  // before the path.
  const url = request.url;
  return /^https?:\/\//.test(url) ? url.slice(0, url.indexOf("/", url.indexOf("//") + 2)) : new URL(url).origin;
}

export const LOCAL_HOST_NAMES: readonly string[] = ["localhost", "127.0.0.1", "[::1]"];
