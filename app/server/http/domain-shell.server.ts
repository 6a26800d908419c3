// First renders of /domain/{name} from prepared shells (page-shell.server.ts). Rendering a domain page
// is the same React and React Router work for every name; what differs is a handful of strings. So the
// page's loaders run as usual (fresh fee, price and reply time, the view counted), and when the rest of
// their data matches a shell already rendered, the page is that shell with this domain's strings put
// back. A shell is made from two sample domains of the same shape: the first is cut, the second must
// then come out of the shell byte for byte as React Router renders it, or the shape is always rendered.
import { domainToASCII } from "node:url";
import { matchRoutes, type ServerBuild } from "react-router";
import type { DomainRouteData } from "../../routes/domain";
import {
  displayDomainName,
  domainNameFitStyle,
  domainNameLabels,
  domainPagePath,
  shortDomainName,
} from "../../lib/domain-name";
import { centsToDollarText, formatUsd } from "../../lib/money";
import { routeTree } from "./express.server";
import { log } from "../runtime/log.server";
import { cutShell, fillShell, type LoaderResult, type Shell } from "./page-shell.server";
import { requestValuesFor, routerContextFor, type RequestValues } from "./request-context.server";

// Route ids in the build (app/routes.ts): the root and app/routes/domain.tsx.
const ROOT_ROUTE = "root";
const DOMAIN_ROUTE = "routes/domain";
/** Every sample string carries it, so a sample string left in a cut page is found. */
const MARKER = /zqvx/i;
/** Shapes kept: the fee, test mode, site name and reply time in force, times the kinds of name. */
const MAX_SHELLS = 64;

export interface RenderedPage {
  status: number;
  headers: Array<[string, string]>;
  body: Buffer;
}

/** A full React Router render of a page (the direct page path's, with given loader results). */
export type RenderPage = (request: Request, values: RequestValues) => Promise<RenderedPage | null>;

interface DomainShell extends Shell {
  headers: Array<[string, string]>;
  /** Strings and numbers in the rest of the data: React Router's data stream writes a repeat as a reference. */
  taken: Set<string | number>;
}

/** The parts of a listed domain's page data (app/routes/domain.tsx) a shell puts back: its own strings. */
type ListedPage = NonNullable<DomainRouteData["page"]>;
// The pitch is free text (quotes, <, &, emoji): its holes hold it escaped for each place it is written
// (PITCH_HOLES). similarHtml is HTML made by the server: written as it is in the page, and as a JSON string
// in the data stream.
type DomainPage = Pick<ListedPage, "canonicalUrl" | "pitch" | "similarHtml"> & {
  domain: Pick<ListedPage["domain"], "name" | "askingPriceCents">;
};

/** Every field of a data type, each either a page's "own" value or a "shared" one (nested objects field by field). */
type FieldRoles<T> = {
  [K in keyof T]-?: NonNullable<T[K]> extends readonly unknown[]
    ? "own" | "shared"
    : NonNullable<T[K]> extends object
      ? FieldRoles<NonNullable<T[K]>>
      : "own" | "shared";
};

/**
 * The contract with app/routes/domain.tsx: every field of its data, and what a shell does with it.
 * "own" values differ per page and are put back into the shell (stringsOf below); "shared" values are
 * part of the shell's shape (pages with equal ones share a shell). The type check fails when the
 * route's data gains, renames or loses a field; at run time a page whose data does not have exactly
 * these fields is rendered in full and logged as an error ("page shell contract broken").
 */
export const SHELL_FIELDS = {
  siteName: "shared",
  page: {
    siteName: "shared",
    domain: { name: "own", askingPriceCents: "own" },
    feeCents: "shared",
    canonicalUrl: "own",
    replyDays: "shared",
    categories: "shared",
    pitch: "own",
    similarHtml: "own",
    feePromise: "shared",
  },
} as const satisfies FieldRoles<DomainRouteData>;

type Contract = { readonly [key: string]: "own" | "shared" | Contract };

/** The fields of `value` that the contract does not list, or that it lists and `value` lacks. */
export function contractMismatch(value: unknown, contract: Contract = SHELL_FIELDS, at = ""): string[] {
  if (!isPlainObject(value)) return [at || "(data)"];
  const mismatched: string[] = [];
  for (const key of new Set([...Object.keys(value), ...Object.keys(contract)])) {
    const role = contract[key];
    const path = at ? `${at}.${key}` : key;
    if (role === undefined || !(key in value)) mismatched.push(path);
    else if (typeof role === "object" && !(key === "page" && value[key] === null))
      mismatched.push(...contractMismatch(value[key], role, path));
  }
  return mismatched;
}

/**
 * The forms a pitch takes in a page: escaped by React in text and attributes; as a JSON string in the
 * JSON-LD script, escaped by React Router; and as a JSON string inside the JSON string of React Router's
 * data stream, escaped the same way. A sample pitch holds every character these escape, so a form the
 * page writes that is not one of these leaves the sample's marker behind and no shell is made.
 */
const PITCH_HOLES = new Set(["pitchHtml", "pitchJson", "pitchStream", "similarHtml", "similarStream"]);
const REACT_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" };
const SCRIPT_ESCAPES: Record<string, string> = {
  "&": "\\u0026",
  "<": "\\u003c",
  ">": "\\u003e",
  "\u2028": "\\u2028",
  "\u2029": "\\u2029",
};
const htmlText = (text: string) => text.replace(/[&<>"']/g, (char) => REACT_ESCAPES[char]!);
const scriptText = (text: string) => text.replace(/[&<>\u2028\u2029]/g, (char) => SCRIPT_ESCAPES[char]!);
const jsonInner = (text: string) => JSON.stringify(text).slice(1, -1);

function pitchForms(pitch: string): Record<string, string> {
  return {
    pitchHtml: htmlText(pitch),
    pitchJson: scriptText(jsonInner(pitch)),
    pitchStream: scriptText(jsonInner(jsonInner(pitch))),
  };
}

function similarForms(html: string): Record<string, string> {
  return html ? { similarHtml: html, similarStream: scriptText(jsonInner(jsonInner(html))) } : {};
}

const sampleSimilar = (tag: string) => `<li><a href="/domain/zqvx${tag}s">zqvx${tag} &amp; "s" \u{1F680}</a></li>`;
const samplePitch = (tag: string) => `zqvx${tag} "pitch" <b>&amp;</b> it's \\ \u00e9 \u{1F680} \u2028 done`;

export function createDomainShells(build: ServerBuild, render: RenderPage) {
  const tree = routeTree(build);
  const rootLoader = build.routes[ROOT_ROUTE]?.module.loader;
  const domainLoader = build.routes[DOMAIN_ROUTE]?.module.loader;
  const shells = new Map<string, Promise<DomainShell | null>>();
  /**
   * Domain pages answered from a shell, those rendered in full (no shell fit), and those whose data broke
   * the contract with the route (SHELL_FIELDS), since start.
   */
  const counts = { fromShell: 0, rendered: 0, contractBroken: 0 };
  if (!rootLoader || !domainLoader) {
    log.error({ routes: [ROOT_ROUTE, DOMAIN_ROUTE] }, "page shell contract broken: a route is missing from the build");
  }
  let contractReported = false;

  function shellFor(
    key: string,
    values: RequestValues,
    rootData: unknown,
    routeData: Record<string, unknown>,
    page: DomainPage,
  ) {
    let shell = shells.get(key);
    if (shell) return shell;
    shell = prepareShell(render, values, rootData, routeData, page).catch((error: unknown) => {
      log.error({ error: String((error as Error)?.message ?? error) }, "page shell not made");
      return null;
    });
    if (shells.size >= MAX_SHELLS) shells.delete(shells.keys().next().value!);
    shells.set(key, shell);
    return shell;
  }

  /**
   * A GET of /domain/{name} with no query: runs the root's and the domain route's loaders, and answers
   * from a shell when one fits. Otherwise null, with the loaders' results left in
   * `values.givenLoaderResults`, so the full render that follows does not run them again.
   */
  async function fromShell(request: Request, target: string, values: RequestValues): Promise<RenderedPage | null> {
    if (
      !rootLoader ||
      !domainLoader ||
      !target.startsWith("/domain/") ||
      target.includes("?") ||
      target.endsWith(".data")
    )
      return null;
    const matches = matchRoutes(tree as never, target) as Array<{
      route: { id: string };
      params: Record<string, string>;
    }> | null;
    const leaf = matches?.[matches.length - 1];
    if (leaf?.route.id !== DOMAIN_ROUTE) return null;
    const args = { request, params: leaf.params, context: routerContextFor(values) };
    const [root, route] = await Promise.all([
      settle(() => rootLoader(args as never)),
      settle(() => domainLoader(args as never)),
    ]);
    values.givenLoaderResults = { [ROOT_ROUTE]: root, [DOMAIN_ROUTE]: route };
    if (!("value" in root) || !("value" in route) || !isPlainObject(route.value)) return null;
    const mismatched = contractMismatch(route.value);
    if (mismatched.length > 0) {
      counts.contractBroken += 1;
      if (!contractReported)
        log.error({ fields: mismatched }, "page shell contract broken: the domain route's data has changed shape");
      contractReported = true;
      return null;
    }
    const page = domainPageOf(route.value.page);
    const html = page ? await fill(page, root.value, route.value, values) : null;
    if (page) counts[html === null ? "rendered" : "fromShell"] += 1;
    return html === null ? null : { status: 200, headers: html.headers, body: Buffer.from(html.text) };
  }

  async function fill(page: DomainPage, rootData: unknown, routeData: Record<string, unknown>, values: RequestValues) {
    const nonce = values.cspNonce;
    const key = shapeKey(page, rootData, routeData);
    const shell = key === null ? null : await shellFor(key, values, rootData, routeData, page);
    if (
      !shell ||
      shell.taken.has(page.domain.name) ||
      shell.taken.has(page.canonicalUrl) ||
      shell.taken.has(page.domain.askingPriceCents)
    )
      return null;
    const strings = stringsOf(page, nonce);
    // React Router's data stream writes a repeated string as a reference: a pitch equal to another string differs in shape.
    // (Compared with the page's other own strings, not with the free texts' own forms.)
    const others = Object.entries(strings)
      .filter(([hole]) => !PITCH_HOLES.has(hole))
      .map(([, value]) => value);
    for (const text of [page.pitch, page.similarHtml]) {
      if (text && (shell.taken.has(text) || others.includes(text))) return null;
    }
    if (page.pitch !== null && page.pitch === page.similarHtml) return null;
    const text = fillShell(shell, strings, PITCH_HOLES);
    return text === null ? null : { text, headers: shell.headers };
  }

  return { fromShell, stats: () => ({ ...counts, shapes: shells.size }) };
}

async function settle(load: () => unknown): Promise<LoaderResult> {
  try {
    return { value: await load() };
  } catch (error) {
    return { error };
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/** The page's own part of the data, when it is a listed domain's (a 404 or a redirect has none). */
function domainPageOf(value: unknown): DomainPage | null {
  if (!isPlainObject(value) || !isPlainObject(value.domain)) return null;
  const { name, askingPriceCents } = value.domain;
  if (typeof name !== "string" || !Number.isSafeInteger(askingPriceCents) || typeof value.canonicalUrl !== "string")
    return null;
  if ((value.pitch !== null && typeof value.pitch !== "string") || typeof value.similarHtml !== "string") return null;
  return value as unknown as DomainPage;
}

/** The strings a domain page shows of its own, each in every form the page writes it. */
function stringsOf(page: DomainPage, nonce: string): Record<string, string> {
  const { name, askingPriceCents } = page.domain;
  const short = shortDomainName(name);
  // DomainName (the heading) writes the labels apart and the name's lengths in its style.
  const style = domainNameFitStyle(name);
  const labels = Object.fromEntries(
    domainNameLabels(name)
      .slice(0, -1)
      .map((label, i) => [`label${i}`, label]),
  );
  return {
    ...labels,
    fitStyle: `--name-chars:${style["--name-chars"]};--label-chars:${style["--label-chars"]}`,
    name,
    shownName: displayDomainName(name),
    short,
    shortPath: encodeURIComponent(short),
    canonicalUrl: page.canonicalUrl,
    price: formatUsd(askingPriceCents),
    priceText: centsToDollarText(askingPriceCents),
    priceCents: String(askingPriceCents),
    nonce,
    ...(page.pitch === null ? {} : pitchForms(page.pitch)),
    ...similarForms(page.similarHtml),
  };
}

/**
 * Which labels of a name are punycode, and its last label: names of one kind write the same forms alike
 * ("label.com" links as "label", "xn--..." shows decoded), so one sample stands for all of them.
 */
function kindOfName(name: string): string {
  const labels = name.split(".");
  const last = labels.pop();
  return [...labels.map((label) => (label.startsWith("xn--") ? "x" : "p")), last].join(".");
}

function sampleName(kind: string, tag: string): string {
  const labels = kind.split(".");
  const last = labels.pop();
  const sample = labels.map((label, i) => (label === "x" ? domainToASCII(`zqvx${tag}${i}é`) : `zqvx${tag}${i}`));
  return [...sample, last].join(".");
}

/** The page's data with its own strings taken out: pages with equal keys differ only in those. */
function withoutOwnStrings(
  routeData: Record<string, unknown>,
  page: DomainPage,
  own: DomainPage | null,
): Record<string, unknown> {
  return {
    ...routeData,
    page: {
      ...page,
      domain: {
        ...page.domain,
        name: own?.domain.name ?? null,
        askingPriceCents: own?.domain.askingPriceCents ?? null,
      },
      canonicalUrl: own?.canonicalUrl ?? null,
      // Whether there is a pitch is part of a page's shape; what it says is not.
      pitch: own ? own.pitch : page.pitch === null ? null : "",
      similarHtml: own ? own.similarHtml : page.similarHtml === "" ? "" : "\u0000some",
    },
  };
}

/** Null when the data holds anything but plain objects, arrays and JSON values (a key could not tell them apart). */
function shapeKey(page: DomainPage, rootData: unknown, routeData: Record<string, unknown>): string | null {
  let plain = true;
  const key = JSON.stringify(
    [kindOfName(page.domain.name), rootData, withoutOwnStrings(routeData, page, null)],
    (_name, value: unknown) => {
      if (value === undefined) return "\u0000undefined";
      if (typeof value === "object" && value !== null && !Array.isArray(value) && !isPlainObject(value)) plain = false;
      return value;
    },
  );
  return plain ? key : null;
}

function valuesIn(data: unknown, into = new Set<string | number>()): Set<string | number> {
  if (typeof data === "string" || typeof data === "number") into.add(data);
  else if (Array.isArray(data)) for (const item of data) valuesIn(item, into);
  else if (isPlainObject(data)) {
    for (const [key, value] of Object.entries(data)) {
      into.add(key);
      valuesIn(value, into);
    }
  }
  return into;
}

interface Sample {
  page: DomainPage;
  nonce: string;
  rendered: RenderedPage | null;
}

async function renderSample(
  render: RenderPage,
  values: RequestValues,
  tag: string,
  priceCents: number,
  rootData: unknown,
  routeData: Record<string, unknown>,
  real: DomainPage,
): Promise<Sample> {
  const name = sampleName(kindOfName(real.domain.name), tag);
  const origin = `http://zqvx${tag}.test`;
  const page: DomainPage = {
    domain: { name, askingPriceCents: priceCents },
    canonicalUrl: `${origin}${domainPagePath(name)}`,
    pitch: real.pitch === null ? null : samplePitch(tag),
    similarHtml: real.similarHtml === "" ? "" : sampleSimilar(tag),
  };
  const nonce = `zqvx${tag}nonce`;
  const givenLoaderResults = {
    [ROOT_ROUTE]: { value: rootData },
    [DOMAIN_ROUTE]: { value: withoutOwnStrings(routeData, real, page) },
  };
  // The request's own values but the sample's nonce and data; nothing of a sample goes to the page cache.
  const sampleValues = requestValuesFor({
    requestId: values.requestId,
    clientAddress: values.clientAddress,
    protocol: values.protocol,
    cspNonce: nonce,
  });
  sampleValues.givenLoaderResults = givenLoaderResults;
  const rendered = await render(new Request(`${origin}/domain/zqvx${tag}path`), sampleValues);
  return { page, nonce, rendered };
}

async function prepareShell(
  render: RenderPage,
  values: RequestValues,
  rootData: unknown,
  routeData: Record<string, unknown>,
  real: DomainPage,
): Promise<DomainShell | null> {
  const first = await renderSample(render, values, "a", 987_654_321, rootData, routeData, real);
  const a = first.rendered;
  if (!a || a.status !== 200 || a.headers.some(([name]) => name === "set-cookie"))
    return unusable("the sample page is not a plain 200");
  const cut = cutShell(a.body.toString("utf8"), stringsOf(first.page, first.nonce), MARKER);
  if (!cut) return unusable("the sample page shows a sample string the shell does not know");
  const shell: DomainShell = {
    ...cut,
    headers: a.headers,
    taken: valuesIn([rootData, withoutOwnStrings(routeData, real, null)]),
  };
  const second = await renderSample(render, values, "bb", 1_200_000, rootData, routeData, real);
  const b = second.rendered;
  const filled = fillShell(shell, stringsOf(second.page, second.nonce), PITCH_HOLES);
  if (
    !b ||
    filled !== b.body.toString("utf8") ||
    b.status !== a.status ||
    JSON.stringify(b.headers) !== JSON.stringify(a.headers)
  ) {
    return unusable("a second sample differs from its shell");
  }
  return shell;
}

function unusable(reason: string): null {
  log.error({ reason }, "page shell not used");
  return null;
}
