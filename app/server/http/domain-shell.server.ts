// First renders of a listed domain's public pages from prepared shells (page-shell.server.ts): its page
// at /domain/{name}, its lander at / on its own host, and /contact/{name}. Rendering such a page is the
// same React and React Router work for every name; what differs is a handful of strings. So the page's
// loaders run as usual (fresh fee, price and reply time, the view counted), and when the rest of their
// data matches a shell already rendered, the page is that shell with this domain's strings put back. A
// shell is made from two sample domains of the same shape: the first is cut, the second must then come
// out of the shell byte for byte as React Router renders it, or the shape is always rendered.
import { domainToASCII } from "node:url";
import type { ServerBuild } from "react-router";
import type { DomainRouteData } from "../../routes/domain";
import type { loader as contactLoader } from "../../routes/contact";
import type { loader as homeLoader } from "../../routes/home";
import {
  displayDomainName,
  domainNameFitStyle,
  domainNameLabels,
  domainPagePath,
  shortDomainName,
} from "../../lib/domain-name";
import { escapeHtml } from "../../lib/escape-html";
import { centsToDollarText, formatUsd } from "../../lib/money";
import { log } from "../runtime/log.server";
import { cutShell, fillShell, type LoaderResult, type Shell } from "./page-shell.server";
import { requestValuesFor, routerContextFor, type RequestValues } from "./request-context.server";

// Route ids in the build (app/routes.ts): the root, and the routes of the pages shells are made for.
const ROOT_ROUTE = "root";
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

/**
 * What a shell puts back: a listed domain's own values on its page (null or empty where the page's kind
 * has none: /contact shows only the name). The pitch is free text (quotes, <, &, emoji): its holes hold it
 * escaped for each place it is written (PITCH_HOLES). similarHtml is HTML made by the server: written as
 * it is in the page, and as a JSON string in the data stream.
 */
interface Own {
  name: string;
  priceCents: number | null;
  canonicalUrl: string | null;
  pitch: string | null;
  similarHtml: string;
}

type RouteData = Record<string, unknown>;
type LanderData = Extract<Awaited<ReturnType<typeof homeLoader>>, { kind: "lander" }>;
type ContactData = Awaited<ReturnType<typeof contactLoader>>;

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

/** The lander at / on a listed domain's host (app/routes/home.tsx): the domain page's data, and a link home. */
export const LANDER_FIELDS = {
  kind: "shared",
  lander: SHELL_FIELDS.page,
  browseUrl: "shared",
} as const satisfies FieldRoles<LanderData>;

/** /contact/{name} (app/routes/contact.tsx). */
export const CONTACT_FIELDS = { siteName: "shared", domainName: "own" } as const satisfies FieldRoles<ContactData>;

type Contract = { readonly [key: string]: "own" | "shared" | Contract };

/** A page a shell may stand in for: where it is, how its data is checked, and where its own values are. */
interface ShellKind {
  route: string;
  /** Whether a GET of `target` (path and query, as sent) may be this kind's page. */
  fits: (target: string) => boolean;
  /** The route's params for a target that fits, as React Router's matchRoutes gives them. */
  params: (target: string) => Record<string, string>;
  /** Whether the route's data is this kind's page (the index route also serves the browse page). */
  applies: (data: RouteData) => boolean;
  contract: Contract;
  /** The page's own values; null when the data is not a listed domain's page (a 404). */
  ownOf: (data: RouteData) => Own | null;
  /** The data with `own` in place of the page's own values; with null, those values blanked (the page's shape). */
  withOwn: (data: RouteData, real: Own, own: Own | null) => RouteData;
  /** Where a sample page is rendered. */
  samplePath: (tag: string) => string;
}

/**
 * Paths of one segment after `prefix` (the direct page path only sends such), and the segment as the
 * route's one param: decoded as React Router's matchRoutes does it (kept as sent when malformed), without
 * matching every route again per request (a tenth of a first render's CPU).
 */
function segmentAfter(prefix: string, param: string) {
  return {
    fits: (target: string) =>
      target.startsWith(prefix) &&
      target.length > prefix.length &&
      !/[/?]/.test(target.slice(prefix.length)) &&
      !target.endsWith(".data"),
    params: (target: string) => {
      const segment = target.slice(prefix.length);
      let decoded = segment;
      try {
        decoded = decodeURIComponent(segment);
      } catch {
        // React Router matches the path as it was sent.
      }
      return { [param]: decoded.replace(/%2F/g, "/") };
    },
  };
}

/** The own values of a domain page's data (`page` of app/routes/domain.tsx, `lander` of the lander). */
function listedOwn(value: unknown): Own | null {
  if (!isPlainObject(value) || !isPlainObject(value.domain)) return null;
  const { name, askingPriceCents } = value.domain;
  if (typeof name !== "string" || !Number.isSafeInteger(askingPriceCents) || typeof value.canonicalUrl !== "string")
    return null;
  if ((value.pitch !== null && typeof value.pitch !== "string") || typeof value.similarHtml !== "string") return null;
  return {
    name,
    priceCents: askingPriceCents as number,
    canonicalUrl: value.canonicalUrl,
    pitch: value.pitch as string | null,
    similarHtml: value.similarHtml,
  };
}

function listedWith(value: unknown, real: Own, own: Own | null): RouteData {
  const page = value as RouteData & { domain: RouteData };
  return {
    ...page,
    domain: { ...page.domain, name: own?.name ?? null, askingPriceCents: own?.priceCents ?? null },
    canonicalUrl: own?.canonicalUrl ?? null,
    // Whether there is a pitch is part of a page's shape; what it says is not.
    pitch: own ? own.pitch : real.pitch === null ? null : "",
    similarHtml: own ? own.similarHtml : real.similarHtml === "" ? "" : "\u0000some",
  };
}

const DOMAIN_PAGE: ShellKind = {
  route: "routes/domain",
  ...segmentAfter("/domain/", "domainName"),
  applies: () => true,
  contract: SHELL_FIELDS,
  ownOf: (data) => listedOwn(data.page),
  withOwn: (data, real, own) => ({ ...data, page: listedWith(data.page, real, own) }),
  samplePath: (tag) => `/domain/zqvx${tag}path`,
};

const LANDER: ShellKind = {
  route: "routes/home",
  fits: (target) => target === "/",
  params: () => ({}),
  applies: (data) => data.kind === "lander",
  contract: LANDER_FIELDS,
  ownOf: (data) => listedOwn(data.lander),
  withOwn: (data, real, own) => ({ ...data, lander: listedWith(data.lander, real, own) }),
  samplePath: () => "/",
};

const CONTACT_PAGE: ShellKind = {
  route: "routes/contact",
  ...segmentAfter("/contact/", "domainName"),
  applies: () => true,
  contract: CONTACT_FIELDS,
  ownOf: (data) =>
    typeof data.domainName === "string"
      ? { name: data.domainName, priceCents: null, canonicalUrl: null, pitch: null, similarHtml: "" }
      : null,
  withOwn: (data, _real, own) => ({ ...data, domainName: own?.name ?? null }),
  samplePath: (tag) => `/contact/zqvx${tag}path`,
};

const KINDS = [DOMAIN_PAGE, LANDER, CONTACT_PAGE];

/** The kind of page a direct page GET of `target` may be, and its route's params; null when none. */
export function shellRouteFor(target: string): { kind: ShellKind; params: Record<string, string> } | null {
  const kind = KINDS.find((each) => each.fits(target));
  return kind ? { kind, params: kind.params(target) } : null;
}

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
const SCRIPT_ESCAPES: Record<string, string> = {
  "&": "\\u0026",
  "<": "\\u003c",
  ">": "\\u003e",
  "\u2028": "\\u2028",
  "\u2029": "\\u2029",
};
const scriptText = (text: string) => text.replace(/[&<>\u2028\u2029]/g, (char) => SCRIPT_ESCAPES[char]!);
const jsonInner = (text: string) => JSON.stringify(text).slice(1, -1);

/** A string's forms in a page, remembered for the strings pages showed lately (a name's page is asked for again). */
function rememberedForms(make: (text: string) => Record<string, string>, max = 2_000) {
  const made = new Map<string, Record<string, string>>();
  return (text: string) => {
    let forms = made.get(text);
    if (!forms) {
      if (made.size >= max) made.clear();
      forms = make(text);
      made.set(text, forms);
    }
    return forms;
  };
}

const pitchForms = rememberedForms((pitch) => ({
  pitchHtml: escapeHtml(pitch),
  pitchJson: scriptText(jsonInner(pitch)),
  pitchStream: scriptText(jsonInner(jsonInner(pitch))),
}));

const similarForms = rememberedForms((html): Record<string, string> =>
  html ? { similarHtml: html, similarStream: scriptText(jsonInner(jsonInner(html))) } : {},
);

const sampleSimilar = (tag: string) => `<li><a href="/domain/zqvx${tag}s">zqvx${tag} &amp; "s" \u{1F680}</a></li>`;
const samplePitch = (tag: string) => `zqvx${tag} "pitch" <b>&amp;</b> it's \\ \u00e9 \u{1F680} \u2028 done`;

export function createDomainShells(build: ServerBuild, render: RenderPage) {
  const rootLoader = build.routes[ROOT_ROUTE]?.module.loader;
  const shells = new Map<string, Promise<DomainShell | null>>();
  /**
   * Pages answered from a shell, those rendered in full (no shell fit), and those whose data broke the
   * contract with the route (SHELL_FIELDS, LANDER_FIELDS, CONTACT_FIELDS), since start.
   */
  const counts = { fromShell: 0, rendered: 0, contractBroken: 0 };
  const missing = [ROOT_ROUTE, ...KINDS.map((kind) => kind.route)].filter((id) => !build.routes[id]?.module.loader);
  if (missing.length > 0)
    log.error({ routes: missing }, "page shell contract broken: a route is missing from the build");
  const contractReported = new Set<ShellKind>();

  function shellFor(
    key: string,
    kind: ShellKind,
    values: RequestValues,
    rootData: unknown,
    routeData: RouteData,
    real: Own,
  ) {
    let shell = shells.get(key);
    if (shell) return shell;
    shell = prepareShell(render, kind, values, rootData, routeData, real).catch((error: unknown) => {
      log.error({ error: String((error as Error)?.message ?? error) }, "page shell not made");
      return null;
    });
    if (shells.size >= MAX_SHELLS) shells.delete(shells.keys().next().value!);
    shells.set(key, shell);
    return shell;
  }

  /**
   * A GET of a listed domain's page (/domain/{name} or /contact/{name} with no query, or / on its host):
   * runs the root's and the page route's loaders, and answers from a shell when one fits. Otherwise null,
   * with the loaders' results left in `values.givenLoaderResults`, so the full render that follows does
   * not run them again.
   */
  async function fromShell(request: Request, target: string, values: RequestValues): Promise<RenderedPage | null> {
    const found = shellRouteFor(target);
    const kind = found?.kind;
    const routeLoader = kind && build.routes[kind.route]?.module.loader;
    if (!found || !kind || !rootLoader || !routeLoader) return null;
    const args = { request, params: found.params, context: routerContextFor(values) };
    const [root, route] = await Promise.all([
      settle(() => rootLoader(args as never)),
      settle(() => routeLoader(args as never)),
    ]);
    values.givenLoaderResults = { [ROOT_ROUTE]: root, [kind.route]: route };
    if (!("value" in root) || !("value" in route) || !isPlainObject(route.value) || !kind.applies(route.value))
      return null;
    const mismatched = contractMismatch(route.value, kind.contract);
    if (mismatched.length > 0) {
      counts.contractBroken += 1;
      if (!contractReported.has(kind))
        log.error(
          { route: kind.route, fields: mismatched },
          "page shell contract broken: the route's data has changed shape",
        );
      contractReported.add(kind);
      return null;
    }
    const own = kind.ownOf(route.value);
    if (!own) return null;
    const page = await fill(kind, own, root.value, route.value, values);
    counts[page === null ? "rendered" : "fromShell"] += 1;
    return page;
  }

  async function fill(
    kind: ShellKind,
    own: Own,
    rootData: unknown,
    routeData: RouteData,
    values: RequestValues,
  ): Promise<RenderedPage | null> {
    const nonce = values.cspNonce;
    const key = shapeKey(kind, own, rootData, routeData);
    const shell = key === null ? null : await shellFor(key, kind, values, rootData, routeData, own);
    if (
      !shell ||
      shell.taken.has(own.name) ||
      (own.canonicalUrl !== null && shell.taken.has(own.canonicalUrl)) ||
      (own.priceCents !== null && shell.taken.has(own.priceCents))
    )
      return null;
    const strings = stringsOf(own, nonce);
    // React Router's data stream writes a repeated string as a reference: a pitch equal to another string differs in shape.
    // (Compared with the page's other own strings, not with the free texts' own forms.)
    const others = Object.entries(strings)
      .filter(([hole]) => !PITCH_HOLES.has(hole))
      .map(([, value]) => value);
    for (const text of [own.pitch, own.similarHtml]) {
      if (text && (shell.taken.has(text) || others.includes(text))) return null;
    }
    if (own.pitch !== null && own.pitch === own.similarHtml) return null;
    const body = fillShell(shell, strings, PITCH_HOLES);
    return body === null ? null : { status: 200, headers: shell.headers, body };
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

/** The strings a page shows of its own, each in every form the page writes it. */
function stringsOf(own: Own, nonce: string): Record<string, string> {
  return {
    ...nameForms(own.name),
    ...(own.canonicalUrl === null ? {} : { canonicalUrl: own.canonicalUrl }),
    ...(own.priceCents === null ? {} : priceForms(String(own.priceCents))),
    nonce,
    ...(own.pitch === null ? {} : pitchForms(own.pitch)),
    ...similarForms(own.similarHtml),
  };
}

const nameForms = rememberedForms((name) => {
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
  };
});

const priceForms = rememberedForms((cents) => ({
  price: formatUsd(Number(cents)),
  priceText: centsToDollarText(Number(cents)),
  priceCents: cents,
}));

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

/** Null when the data holds anything but plain objects, arrays and JSON values (a key could not tell them apart). */
function shapeKey(kind: ShellKind, own: Own, rootData: unknown, routeData: RouteData): string | null {
  let plain = true;
  const key = JSON.stringify(
    [kind.route, kindOfName(own.name), rootData, kind.withOwn(routeData, own, null)],
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
  own: Own;
  nonce: string;
  rendered: RenderedPage | null;
}

async function renderSample(
  render: RenderPage,
  kind: ShellKind,
  values: RequestValues,
  tag: string,
  priceCents: number,
  rootData: unknown,
  routeData: RouteData,
  real: Own,
): Promise<Sample> {
  const name = sampleName(kindOfName(real.name), tag);
  const origin = `http://zqvx${tag}.test`;
  const own: Own = {
    name,
    priceCents: real.priceCents === null ? null : priceCents,
    canonicalUrl: real.canonicalUrl === null ? null : `${origin}${domainPagePath(name)}`,
    pitch: real.pitch === null ? null : samplePitch(tag),
    similarHtml: real.similarHtml === "" ? "" : sampleSimilar(tag),
  };
  const nonce = `zqvx${tag}nonce`;
  const givenLoaderResults = {
    [ROOT_ROUTE]: { value: rootData },
    [kind.route]: { value: kind.withOwn(routeData, real, own) },
  };
  // The request's own values but the sample's nonce and data; nothing of a sample goes to the page cache.
  const sampleValues = requestValuesFor({
    requestId: values.requestId,
    clientAddress: values.clientAddress,
    protocol: values.protocol,
    cspNonce: nonce,
  });
  sampleValues.givenLoaderResults = givenLoaderResults;
  const rendered = await render(new Request(`${origin}${kind.samplePath(tag)}`), sampleValues);
  return { own, nonce, rendered };
}

async function prepareShell(
  render: RenderPage,
  kind: ShellKind,
  values: RequestValues,
  rootData: unknown,
  routeData: RouteData,
  real: Own,
): Promise<DomainShell | null> {
  const first = await renderSample(render, kind, values, "a", 987_654_321, rootData, routeData, real);
  const a = first.rendered;
  if (!a || a.status !== 200 || a.headers.some(([name]) => name === "set-cookie"))
    return unusable(kind, "the sample page is not a plain 200");
  const cut = cutShell(a.body.toString("utf8"), stringsOf(first.own, first.nonce), MARKER);
  if (!cut) return unusable(kind, "the sample page shows a sample string the shell does not know");
  const shell: DomainShell = {
    ...cut,
    headers: a.headers,
    taken: valuesIn([rootData, kind.withOwn(routeData, real, null)]),
  };
  const second = await renderSample(render, kind, values, "bb", 1_200_000, rootData, routeData, real);
  const b = second.rendered;
  const filled = fillShell(shell, stringsOf(second.own, second.nonce), PITCH_HOLES);
  if (
    !b ||
    !filled?.equals(b.body) ||
    b.status !== a.status ||
    JSON.stringify(b.headers) !== JSON.stringify(a.headers)
  ) {
    return unusable(kind, "a second sample differs from its shell");
  }
  return shell;
}

function unusable(kind: ShellKind, reason: string): null {
  log.error({ route: kind.route, reason }, "page shell not used");
  return null;
}
