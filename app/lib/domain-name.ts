// Domain-name rules shared by the browser and the server: no server imports here.

const MAX_NAME_LENGTH = 253;
const MAX_LABEL_LENGTH = 63;
const LABEL_PATTERN = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** The short form used in links: no leading "www.", no trailing ".com". */
export function shortDomainName(name: string): string {
  let short = name.trim().toLowerCase();
  if (short.startsWith("www.")) short = short.slice(4);
  if (short.endsWith(".com") && short.length > 4) short = short.slice(0, -4);
  return short;
}

/** Trim, lower-case, drop "www." and a trailing dot, and turn IDN labels into punycode. */
export function normalizeDomainName(input: string): string | null {
  let name = input.trim().toLowerCase().replace(/\.$/, "");
  if (name.startsWith("www.")) name = name.slice(4);
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

/** A name stored in the portfolio: valid, with at least one dot (e.g. "example.com"). */
export function parseStoredDomainName(input: string): string | null {
  const name = normalizeDomainName(input);
  if (!name || !name.includes(".") || !isValidDomainName(name)) return null;
  return name;
}

/** The names to try for a route parameter, in order: "{name}.com" first for a name with no dot, then the raw name. */
export function lookupCandidates(param: string): string[] {
  const name = normalizeDomainName(param);
  if (!name || !isValidDomainName(name)) return [];
  return name.includes(".") ? [name] : [`${name}.com`, name];
}
