// A prepared shell: a page React Router rendered once from sample data, cut at every place where a
// sample's own strings (its name, price, nonce...) appear, so that a page of the same shape is the
// shell with the real strings put back, without rendering. app/server/http/domain-shell.server.ts says
// which strings those are, and when a shell may stand in for a render.
import type { RouterContextProvider, ServerBuild } from "react-router";
import { requestValues } from "./request-context.server";

/** What a route's loader gave: its value, or what it threw. */
export type LoaderResult = { value: unknown } | { error: unknown };

/**
 * The build with every loader answering from the request values' `givenLoaderResults` when they hold
 * the route's result (and running as usual otherwise).
 */
export function withGivenLoaderResults(build: ServerBuild): ServerBuild {
  const routes: ServerBuild["routes"] = {};
  for (const [id, route] of Object.entries(build.routes)) {
    const loader = route?.module.loader;
    if (!route || !loader) {
      routes[id] = route;
      continue;
    }
    const given: typeof loader = (args) => {
      const result = requestValues(args.context as Readonly<RouterContextProvider>).givenLoaderResults?.[id];
      if (!result) return loader(args);
      if ("error" in result) throw result.error;
      return result.value as ReturnType<typeof loader>;
    };
    routes[id] = { ...route, module: { ...route.module, loader: given } };
  }
  return { ...build, routes };
}

/**
 * Characters a put-back string may hold: none that React, JSON or React Router's script escaping would
 * write differently from the string itself, so one cut serves text, attributes and inline data alike.
 */
const INERT = /^[^\x00-\x1f\x7f&<>"'\\\u2028\u2029\ud800-\udfff]+$/;

export function isInert(value: string): boolean {
  return INERT.test(value);
}

export interface Shell {
  /** The page between the holes, as UTF-8 (a page is sent as bytes): parts.length === holes.length + 1. */
  parts: Buffer[];
  holes: string[];
  /** Holes whose sample strings were equal: a page fits the shell only if its strings are equal too. */
  aliases: Array<[string, string]>;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Cuts a sample page at its sample strings (longest first, so a name inside its page's URL is not cut
 * out of it). Null when `marker`, which every sample string carries, is still in what is left: the page
 * shows a form of a sample string that `samples` does not name, and a shell would show the sample's.
 */
export function cutShell(html: string, samples: Record<string, string>, marker: RegExp): Shell | null {
  const holeOf = new Map<string, string>();
  const aliases: Array<[string, string]> = [];
  for (const [hole, sample] of Object.entries(samples)) {
    if (!sample) return null;
    const first = holeOf.get(sample);
    if (first) aliases.push([first, hole]);
    else holeOf.set(sample, hole);
  }
  const pattern = new RegExp(
    [...holeOf.keys()]
      .sort((a, b) => b.length - a.length)
      .map(escapeRegExp)
      .join("|"),
    "g",
  );
  const parts: string[] = [];
  const holes: string[] = [];
  let from = 0;
  for (const match of html.matchAll(pattern)) {
    parts.push(html.slice(from, match.index));
    holes.push(holeOf.get(match[0])!);
    from = match.index + match[0].length;
  }
  parts.push(html.slice(from));
  if (parts.some((part) => marker.test(part))) return null;
  return { parts: parts.map((part) => Buffer.from(part)), holes, aliases };
}

/**
 * The shell with `values` in its holes, as the page's bytes; null when a value cannot go in as it is.
 * Holes named in `encoded` hold values already written for their one place in the page (escaped for
 * HTML, or for a script's JSON), so they may hold any character; every other value must be inert. The
 * parts are copied as bytes into one buffer and only the values are encoded (encoding the whole page
 * from a string was a twentieth of a first render's CPU).
 */
export function fillShell(
  shell: Shell,
  values: Record<string, string>,
  encoded: ReadonlySet<string> = new Set(),
): Buffer | null {
  for (const [first, other] of shell.aliases) if (values[first] !== values[other]) return null;
  for (const [hole, value] of Object.entries(values)) if (!encoded.has(hole) && !isInert(value)) return null;
  const { parts, holes } = shell;
  let size = 0;
  for (const part of parts) size += part.length;
  for (const hole of holes) {
    const value = values[hole];
    if (value === undefined) return null;
    size += Buffer.byteLength(value);
  }
  const page = Buffer.allocUnsafe(size);
  let at = parts[0]!.copy(page, 0);
  for (let i = 0; i < holes.length; i += 1) {
    at += page.write(values[holes[i]!]!, at);
    at += parts[i + 1]!.copy(page, at);
  }
  return page;
}
