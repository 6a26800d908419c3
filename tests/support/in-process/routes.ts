// Calls the app's loaders and actions in the test's own process: a fetch Request and the context server.ts
// would give them (routerContextFor(requestValuesFor(...))), the route found in app/routes.ts as React
// Router finds it. What an answer carries (status, Location, headers, the data the page would render)
// is read from it whether the route returned or threw it, a plain value, data(...) or a Response.
// Not covered here, because they are not a route's: what server.ts does around the routes (security
// headers, the page cache, body limits, the cross-origin check); tests of those start the real server.
import { randomUUID } from "node:crypto";
import { join, resolve } from "node:path";
import { matchRoutes, type RouteObject } from "react-router";
import routeConfig from "../../../app/routes";
import { requestValuesFor, routerContextFor } from "../../../app/server/http/request-context.server";

const appDirectory = resolve(import.meta.dirname, "../../../app");

/** The origin requests are made on (the app's links and redirects are built from it, as from a browser's Host). */
export const TEST_ORIGIN = "http://localhost:3000";

type RouteFunction = (args: {
  request: Request;
  params: Record<string, string | undefined>;
  context: unknown;
}) => unknown;
interface RouteModule {
  loader?: RouteFunction;
  action?: RouteFunction;
}

export interface RouteCall {
  /** A form post's fields (application/x-www-form-urlencoded), or a FormData (multipart). */
  form?: Record<string, string> | URLSearchParams | FormData;
  /** A JSON body, as the page's script sends it. */
  json?: unknown;
  /** Any other body, with the headers that describe it. */
  body?: BodyInit;
  method?: string;
  headers?: HeadersInit;
  /** The Cookie header (a signed-in admin's or owner's session, the payer cookie). */
  cookie?: string;
  /** The client's address as server.ts found it (rate limits count per address). */
  clientAddress?: string;
  protocol?: "http" | "https";
}

export interface RouteAnswer<Data = any> {
  status: number;
  headers: Headers;
  /** Location of a redirect, else null. */
  location: string | null;
  /** What the route gave the page (a plain value or data(...)'s), or a JSON Response's body; else undefined. */
  data: Data;
  /** A Response's body as text (a CSV, an XML sitemap), else "". */
  text: string;
  /** Whether the route threw the answer (a redirect or an error response) rather than returning it. */
  thrown: boolean;
}

/** app/routes.ts as React Router matches it: the route module's file kept by the route's id. */
const files = new Map<string, string>();
const routes: RouteObject[] = routeConfig.map((entry) => {
  const id = entry.id ?? entry.file;
  files.set(id, entry.file);
  return entry.index ? { id, index: true } : { id, path: entry.path };
});

/** The route module app/routes.ts maps a path to, and the path's params. */
export async function routeFor(path: string): Promise<{ module: RouteModule; params: Record<string, string> }> {
  const matches = matchRoutes(routes, new URL(path, TEST_ORIGIN).pathname);
  const match = matches?.at(-1);
  if (!match) throw new Error(`no route in app/routes.ts answers ${path}`);
  const file = files.get(match.route.id!)!;
  const module = (await import(/* @vite-ignore */ join(appDirectory, file))) as RouteModule;
  return { module, params: match.params as Record<string, string> };
}

/** A Request as a browser sends it to `path`, with `call`'s body and headers. */
export function requestFor(path: string, call: RouteCall = {}): Request {
  const headers = new Headers(call.headers);
  if (call.cookie) headers.set("Cookie", call.cookie);
  let body: BodyInit | undefined = call.body;
  if (call.form instanceof FormData) body = call.form;
  else if (call.form) {
    body = new URLSearchParams(call.form).toString();
    headers.set("Content-Type", "application/x-www-form-urlencoded");
  } else if (call.json !== undefined) {
    body = JSON.stringify(call.json);
    headers.set("Content-Type", "application/json");
  }
  const method = call.method ?? (body === undefined ? "GET" : "POST");
  return new Request(new URL(path, TEST_ORIGIN), { method, headers, body });
}

/** The context server.ts gives a loader or action for a request from `clientAddress`. */
export function contextFor(call: Pick<RouteCall, "clientAddress" | "protocol"> = {}) {
  return routerContextFor(
    requestValuesFor({
      requestId: randomUUID(),
      clientAddress: call.clientAddress ?? "127.0.0.1",
      protocol: call.protocol ?? "http",
      cspNonce: "test-nonce",
    }),
  );
}

/** Runs the loader of the route that answers `path` (a GET as a browser's navigation). */
export async function load<Data = any>(path: string, call: RouteCall = {}): Promise<RouteAnswer<Data>> {
  const { module, params } = await routeFor(path);
  if (!module.loader) throw new Error(`the route for ${path} has no loader`);
  return run(module.loader, requestFor(path, { ...call, method: call.method ?? "GET" }), params, call);
}

/** Runs the action of the route that answers `path` (a POST, or call.method). */
export async function act<Data = any>(path: string, call: RouteCall = {}): Promise<RouteAnswer<Data>> {
  const { module, params } = await routeFor(path);
  if (!module.action) throw new Error(`the route for ${path} has no action`);
  return run(module.action, requestFor(path, { ...call, method: call.method ?? "POST" }), params, call);
}

async function run(
  routeFunction: RouteFunction,
  request: Request,
  params: Record<string, string>,
  call: RouteCall,
): Promise<RouteAnswer> {
  try {
    return await answerFrom(await routeFunction({ request, params, context: contextFor(call) }), false);
  } catch (error) {
    if (error instanceof Response || isDataWithInit(error)) return answerFrom(error, true);
    throw error;
  }
}

interface DataWithInit {
  type: "DataWithResponseInit";
  data: unknown;
  init: ResponseInit | null;
}

function isDataWithInit(value: unknown): value is DataWithInit {
  return (value as DataWithInit | null)?.type === "DataWithResponseInit";
}

async function answerFrom(value: unknown, thrown: boolean): Promise<RouteAnswer> {
  if (value instanceof Response) {
    const text = await value.text();
    const json = value.headers.get("content-type")?.includes("application/json") ? JSON.parse(text) : undefined;
    return {
      status: value.status,
      headers: value.headers,
      location: value.headers.get("location"),
      data: json,
      text,
      thrown,
    };
  }
  if (isDataWithInit(value)) {
    const headers = new Headers(value.init?.headers);
    const status = value.init?.status ?? (thrown ? 500 : 200);
    return { status, headers, location: headers.get("location"), data: value.data, text: "", thrown };
  }
  return { status: 200, headers: new Headers(), location: null, data: value, text: "", thrown };
}
