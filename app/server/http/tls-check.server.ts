// Caddy's on-demand TLS asks /tls-check before it orders a certificate for a name it has not seen. A
// listed domain is approved only while its DNS points at this server: an order for a name that does not
// resolve here cannot validate, and a large portfolio's failed orders would use up the ACME account's
// rate limits. Lookups are cached (DNS_CACHE_MS), so Caddy's asks cost one query per name per minutes.
import { Resolver } from "node:dns/promises";
import { isIP } from "node:net";
import { hostNameFromHeader, LOCAL_HOST_NAMES } from "../../lib/host";
import { operatorHostNames } from "../catalog/hosts.server";
import { servesHostName } from "../catalog/landers.server";
import { env } from "../runtime/env.server";
import { parseDnsServers, parseTlsCheckAddresses } from "./tls-check-settings.server";

const DNS_CACHE_MS = 5 * 60 * 1000;
/** A failed lookup (no such name, a timeout) is asked again sooner. */
const DNS_FAILURE_CACHE_MS = 60 * 1000;
const MAX_CACHED_NAMES = 10_000;

export interface TlsApprovalOptions {
  /** TLS_CHECK_ADDRESSES: "any" (no DNS check), this server's public addresses, or unset (learned). */
  addresses?: string;
  /** PUBLIC_URL and EXTRA_HOSTS: without TLS_CHECK_ADDRESSES, this server's addresses are what they resolve to. */
  publicUrl?: string;
  extraHosts?: string;
  /** DNS_SERVERS: the resolvers to ask (ip or ip:port, comma-separated); unset: the system's. */
  dnsServers?: string;
  now?: () => number;
}

interface Cached {
  addresses: string[];
  until: number;
}

/**
 * `approve(name)`: whether Caddy may get a certificate for a name. The operator's own host names are
 * approved; a listed domain (or its www. form) only when its A/AAAA records include an address of this
 * server. Without TLS_CHECK_ADDRESSES those are the addresses PUBLIC_URL's and EXTRA_HOSTS' names
 * resolve to (the site works, so its DNS points here); with no PUBLIC_URL either, no DNS check is made.
 */
export function createTlsApproval(options: TlsApprovalOptions) {
  const now = options.now ?? Date.now;
  const configured = parseTlsCheckAddresses(options.addresses);
  const resolver = new Resolver({ timeout: 2_000, tries: 2 });
  const servers = parseDnsServers(options.dnsServers);
  if (servers) resolver.setServers(servers);
  const cache = new Map<string, Cached>();
  const pending = new Map<string, Promise<string[]>>();

  async function lookup(name: string): Promise<string[]> {
    if (isIP(name)) return [name];
    if (LOCAL_HOST_NAMES.includes(name) || name.endsWith(".localhost")) return ["127.0.0.1", "::1"];
    const hit = cache.get(name);
    if (hit && hit.until > now()) return hit.addresses;
    const running = pending.get(name);
    if (running) return running;
    const query = (async () => {
      const answers = await Promise.allSettled([resolver.resolve4(name), resolver.resolve6(name)]);
      const addresses = answers.flatMap((answer) => (answer.status === "fulfilled" ? answer.value : []));
      if (cache.size >= MAX_CACHED_NAMES) cache.delete(cache.keys().next().value!);
      cache.set(name, { addresses, until: now() + (addresses.length > 0 ? DNS_CACHE_MS : DNS_FAILURE_CACHE_MS) });
      return addresses;
    })().finally(() => pending.delete(name));
    pending.set(name, query);
    return query;
  }

  /** This server's addresses: the setting, or what the operator's own names resolve to. */
  async function ownAddresses(): Promise<string[] | "any"> {
    if (configured) return configured;
    const names = ownNames(options.publicUrl, options.extraHosts);
    if (names.length === 0) return "any";
    return (await Promise.all(names.map(lookup))).flat();
  }

  return async function approve(value: string | null): Promise<boolean> {
    if (!(await servesHostName(value))) return false;
    const name = (value ?? "").trim().toLowerCase().replace(/\.$/, "");
    if (operatorHostNames.has(hostNameFromHeader(name) ?? "")) return true;
    const own = await ownAddresses();
    if (own === "any") return true;
    const resolved = await lookup(name);
    return resolved.some((address) => own.includes(address));
  };
}

/** PUBLIC_URL's and EXTRA_HOSTS' host names, as written (a www. form kept). */
function ownNames(publicUrl: string | undefined, extraHosts: string | undefined): string[] {
  const names: string[] = [];
  if (publicUrl) names.push(new URL(publicUrl).hostname.replace(/^\[|\]$/g, "").toLowerCase());
  for (const entry of (extraHosts ?? "").split(",")) {
    const raw = entry
      .trim()
      .replace(/^[a-z][a-z0-9+.-]*:\/\//i, "")
      .replace(/[/:].*$/, "")
      .toLowerCase();
    if (raw) names.push(raw);
  }
  return names;
}

let approval: ReturnType<typeof createTlsApproval> | undefined;

/** The approval /tls-check answers with, from the settings. */
export function approveTlsName(value: string | null): Promise<boolean> {
  approval ??= createTlsApproval({
    addresses: env.TLS_CHECK_ADDRESSES,
    publicUrl: env.PUBLIC_URL,
    extraHosts: env.EXTRA_HOSTS,
    dnsServers: env.DNS_SERVERS,
  });
  return approval(value);
}
