// The app's pages rendered in the test's process: React Router's own request handler over a build made of
// the route modules this process imported (app/routes.ts, app/root.tsx, app/entry.server.tsx), so a test
// reads the HTML a browser gets, and the factories and the page share one database and one clock.
// What server.ts adds around React Router (security headers, the page cache, compression, body limits, the
// cross-origin check) is not here: tests of those start the real server (tests/integration).
import { join, resolve } from "node:path";
import {
  createRequestHandler,
  matchRoutes,
  type RouteObject,
  UNSAFE_withComponentProps as withComponentProps,
  UNSAFE_withErrorBoundaryProps as withErrorBoundaryProps,
  type ServerBuild,
} from "react-router";
import routeConfig from "../../../app/routes";
import type { CookieJar } from "../cookie-jar";
import { BROWSER_USER_AGENT } from "../raw-http";
import { contextFor, requestFor, TEST_ORIGIN, type RouteCall } from "./routes";

const appDirectory = resolve(import.meta.dirname, "../../../app");

type RouteModule = Record<string, unknown>;

function manifestEntry(
  id: string,
  parentId: string | undefined,
  path: string | undefined,
  index: boolean | undefined,
  module: RouteModule,
) {
  return {
    id,
    parentId,
    path,
    index,
    caseSensitive: undefined,
    hasAction: typeof module.action === "function",
    hasLoader: typeof module.loader === "function",
    hasClientAction: false,
    hasClientLoader: false,
    hasClientMiddleware: false,
    hasDefaultExport: module.default !== undefined,
    hasErrorBoundary: module.ErrorBoundary !== undefined,
    module: `/assets/${id}.js`,
    imports: [],
    css: [],
  };
}

/** What React Router's Vite plugin does to a route module: its components get the route's props (loaderData, ...). */
function asBuilt(module: RouteModule): RouteModule {
  const built: RouteModule = { ...module };
  if (module.default) built.default = withComponentProps(module.default as never);
  if (module.ErrorBoundary) built.ErrorBoundary = withErrorBoundaryProps(module.ErrorBoundary as never);
  return built;
}

type Handler = ReturnType<typeof createRequestHandler>;

/**
 * The routes imported so far: a file's requests import only the route modules they reach (and the root
 * and entry), not all of them, since importing them is most of what a file's first render costs. The
 * route a path reaches is the one React Router would choose among all of app/routes.ts (matchRoutes over
 * the same list), so a build holding it and others answers that path as the full build would.
 */
const loaded = new Map<string, { route: (typeof routeConfig)[number]; module: RouteModule }>();
const matchable: RouteObject[] = routeConfig.map((route) => {
  const id = route.id ?? route.file.replace(/\.tsx?$/, "");
  return route.index ? { id, index: true } : { id, path: route.path };
});
let shell: Promise<{ root: RouteModule; entry: unknown }> | undefined;
let handler: { routes: number; answer: Handler } | undefined;

async function handlerFor(pathname: string): Promise<Handler> {
  const id = matchRoutes(matchable, pathname)?.at(-1)?.route.id;
  const route = routeConfig.find((entry) => (entry.id ?? entry.file.replace(/\.tsx?$/, "")) === id);
  if (route && id && !loaded.has(id))
    loaded.set(id, { route, module: asBuilt(await import(/* @vite-ignore */ join(appDirectory, route.file))) });
  shell ??= (async () => ({
    root: asBuilt(await import("../../../app/root")),
    entry: await import("../../../app/entry.server"),
  }))();
  const { root, entry } = await shell;
  if (handler?.routes !== loaded.size) handler = { routes: loaded.size, answer: makeHandler(root, entry) };
  return handler.answer;
}

function makeHandler(root: RouteModule, entry: unknown): Handler {
  const routes: ServerBuild["routes"] = {
    root: {
      id: "root",
      parentId: undefined,
      path: "",
      index: undefined,
      caseSensitive: undefined,
      module: root as never,
    },
  };
  const manifestRoutes: Record<string, ReturnType<typeof manifestEntry>> = {
    root: manifestEntry("root", undefined, "", undefined, root),
  };
  for (const [id, { route, module }] of loaded) {
    routes[id] = {
      id,
      parentId: "root",
      path: route.path,
      index: route.index,
      caseSensitive: undefined,
      module: module as never,
    };
    manifestRoutes[id] = manifestEntry(id, "root", route.path, route.index, module);
  }
  const build = {
    entry: { module: entry },
    routes,
    assets: {
      entry: { module: "/assets/entry.client.js", imports: [], css: [] },
      routes: manifestRoutes,
      url: "/assets/manifest.js",
      version: "in-process",
    },
    basename: "/",
    publicPath: "/",
    assetsBuildDirectory: "build/client",
    future: {},
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: "lazy", manifestPath: "/__manifest" },
    allowedActionOrigins: false,
  } as unknown as ServerBuild;
  return createRequestHandler(build, "production");
}

export interface Page {
  status: number;
  headers: Headers;
  location: string | null;
  /** The HTML (or whatever the route answered), as a browser receives it. */
  body: string;
}

/**
 * A request as a browser without JavaScript sends it (a browser's User-Agent; a form post with the site's
 * Origin), answered by React Router as the server's handler answers it: a page, a redirect, a resource.
 * With a `jar`, its cookies are sent and the answer's Set-Cookie headers kept in it.
 */
export async function render(
  path: string,
  call: RouteCall & {
    jar?: CookieJar;
    /** The Origin header of a post: this site's by default, another site's, or null for none. */
    origin?: string | null;
  } = {},
): Promise<Page> {
  const headers = new Headers(call.headers);
  if (call.jar) headers.set("Cookie", call.jar.header());
  if (!headers.has("user-agent")) headers.set("User-Agent", BROWSER_USER_AGENT);
  const posting = call.form !== undefined || call.json !== undefined || call.body !== undefined;
  const origin = call.origin === undefined ? TEST_ORIGIN : call.origin;
  if (posting && origin !== null && !headers.has("origin")) headers.set("Origin", origin);
  const request = requestFor(path, { ...call, headers });
  const answer = await handlerFor(new URL(request.url).pathname.replace(/\.data$/, ""));
  const response = await answer(request, contextFor(call) as never);
  call.jar?.take(response.headers);
  return {
    status: response.status,
    headers: response.headers,
    location: response.headers.get("location"),
    body: await response.text(),
  };
}
