// Domain-name rules shared by the browser and the server: no server imports here.
import { decodePunycode } from "./punycode";

const MAX_NAME_LENGTH = 253;
const MAX_LABEL_LENGTH = 63;
const LABEL_PATTERN = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

const SINGLE_LABEL_COM = /^([^.]+)\.com$/;

/**
 * The name used in links: "label.com" becomes "label"; every other name keeps its full form, which
 * the lookup finds as it is. Shortening more ("shop.us.com" to "shop.us", "velora.com.com" to
 * "velora.com", "www.com" to "com") would link to a missing or to another domain.
 */
export function shortDomainName(name: string): string {
  const full = name.trim().toLowerCase();
  return SINGLE_LABEL_COM.exec(full)?.[1] ?? full;
}

/** The path of a domain's page, e.g. "/domain/example" or "/domain/shop.us.com". */
export function domainPagePath(name: string): string {
  return `/domain/${encodeURIComponent(shortDomainName(name))}`;
}

/** Drops a leading "www." only when what is left is itself a name with a dot and not another "www." name. */
export function withoutWww(name: string): string {
  if (!name.startsWith("www.")) return name;
  const rest = name.slice(4);
  return rest.includes(".") && !rest.startsWith("www.") ? rest : name;
}

/** Trim, lower-case, drop "www." and a trailing dot, and turn IDN labels into punycode. */
export function normalizeDomainName(input: string): string | null {
  let name = withoutWww(input.trim().toLowerCase().replace(/\.$/, ""));
  if (name.length === 0 || name.length > MAX_NAME_LENGTH * 4) return null;
  if (/[\s/\\?#@:%]/.test(name)) return null;
  if (/[^\x00-\x7f]/.test(name)) {
    try {
      name = new URL(`http://${name}`).hostname;
    } catch {
      return null;
    }
  }
  return name;
}

export function isValidDomainName(name: string): boolean {
  if (name.length === 0 || name.length > MAX_NAME_LENGTH) return false;
  const labels = name.split(".");
  return labels.every((label) => label.length <= MAX_LABEL_LENGTH && LABEL_PATTERN.test(label));
}

/** How a stored (ASCII) name is shown: "xn--mnchen-3ya.de" as "münchen.de". Links keep the ASCII form. */
export function displayDomainName(name: string): string {
  if (!name.includes("xn--")) return name;
  return name
    .split(".")
    .map((label) => (label.startsWith("xn--") ? (decodePunycode(label.slice(4)) ?? label) : label))
    .join(".");
}

/** A search term as stored names spell it: "münchen" finds "xn--mnchen-3ya.de". */
export function asciiSearchTerm(term: string): string {
  if (!/[^\x00-\x7f]/.test(term)) return term;
  try {
    return new URL(`http://${term.replace(/^\.+|\.+$/g, "")}`).hostname || term;
  } catch {
    return term;
  }
}

/**
 * An email address with its domain in ASCII (punycode), as a browser's type=email field submits it:
 * "owner@münchen.de" becomes "owner@xn--mnchen-3ya.de". Anything else is returned as it is (an invalid
 * address stays invalid: a "/" or ":" in the domain is never cut off by the URL parser).
 */
export function asciiEmail(address: string): string {
  const at = address.lastIndexOf("@");
  const domain = address.slice(at + 1);
  if (at < 0 || !/[^\x00-\x7f]/.test(domain) || /[\s/\\?#@:%]/.test(domain)) return address;
  try {
    return `${address.slice(0, at + 1)}${new URL(`http://${domain}`).hostname}`;
  } catch {
    return address;
  }
}

/** A name stored in the portfolio: valid, with at least one dot (e.g. "example.com"). */
export function parseStoredDomainName(input: string): string | null {
  const name = normalizeDomainName(input);
  if (!name || !name.includes(".") || !isValidDomainName(name)) return null;
  // An all-digit last label is an IP address ("1.2.3.4"), not a name: no top-level domain is numeric.
  if (/\.\d+$/.test(name)) return null;
  return name;
}

/** The names to try for a route parameter, in order: "{name}.com" first for a name with no dot, then the raw name. */
export function lookupCandidates(param: string): string[] {
  const name = normalizeDomainName(param);
  if (!name || !isValidDomainName(name)) return [];
  return name.includes(".") ? [name] : [`${name}.com`, name];
}

/**
 * A name as DomainName (app/components/domain-name.tsx) writes it: the shown labels, each but the last
 * with its dot (a line may break only after a dot), and the lengths its shrink-to-fit CSS divides by.
 */
export function domainNameLabels(name: string): string[] {
  const labels = displayDomainName(name).split(".");
  return labels.map((label, index) => (index < labels.length - 1 ? `${label}.` : label));
}

export function domainNameFitStyle(name: string): { "--name-chars": string; "--label-chars": string } {
  const labels = displayDomainName(name).split(".");
  return {
    "--name-chars": String(labels.join(".").length),
    "--label-chars": String(Math.max(...labels.map((label) => label.length))),
  };
}
