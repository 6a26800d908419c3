// TLS_CHECK_ADDRESSES and DNS_SERVERS, parsed for env.server.ts (which checks them at start) and for
// tls-check.server.ts. No imports of the app's settings here: env.server.ts imports this file.
import { isIP } from "node:net";

/** Parses TLS_CHECK_ADDRESSES; throws an Error naming a bad entry. */
export function parseTlsCheckAddresses(value: string | undefined): "any" | string[] | undefined {
  const text = value?.trim().toLowerCase();
  if (!text) return undefined;
  if (text === "any") return "any";
  const entries = text.split(",").map((entry) => entry.trim());
  for (const entry of entries) if (!isIP(entry)) throw new Error(`"${entry}" is not an IP address`);
  return entries;
}

/** Parses DNS_SERVERS (ip, ip:port, [ipv6]:port); throws an Error naming a bad entry. */
export function parseDnsServers(value: string | undefined): string[] | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  return text.split(",").map((entry) => {
    const server = entry.trim();
    const match = /^(?:\[([0-9a-f:.]+)\]|([0-9.]+))(?::(\d{1,5}))?$|^([0-9a-f:]+)$/i.exec(server);
    const address = match?.[1] ?? match?.[2] ?? match?.[4];
    if (!address || !isIP(address) || Number(match?.[3] ?? 53) > 65535)
      throw new Error(`"${server}" is not an address or address:port`);
    return server;
  });
}
