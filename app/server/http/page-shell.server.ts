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
  /** The page between the holes: parts.length === holes.length + 1. */
  parts: string[];
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
  return { parts, holes, aliases };
}

/**
 * The shell with `values` in its holes; null when a value cannot go in as it is. Holes named in `encoded`
 * hold values already written for their one place in the page (escaped for HTML, or for a script's JSON),
 * so they may hold any character; every other value must be inert.
 */
export function fillShell(
  shell: Shell,
  values: Record<string, string>,
  encoded: ReadonlySet<string> = new Set(),
): string | null {
  for (const [first, other] of shell.aliases) if (values[first] !== values[other]) return null;
  for (const [hole, value] of Object.entries(values)) if (!encoded.has(hole) && !isInert(value)) return null;
  let html = shell.parts[0]!;
  for (let i = 0; i < shell.holes.length; i += 1) {
    const value = values[shell.holes[i]!];
    if (value === undefined) return null;
    html += value + shell.parts[i + 1]!;
  }
  return html;
}
