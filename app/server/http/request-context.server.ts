// One carrier for what server.ts works out about a request before anything answers it, and for the hooks
// the page cache gives a render. server.ts makes one RequestValues per request
// (requestValuesFor below) and hands it to every stage by argument: the page cache, the live-fee stream,
// the sign-in guard and the React Router handler. React Router's loaders, actions
// and entry.server.tsx read it from their typed context (`requestValues(context)`, `clientIp(context)`).
import { createContext, RouterContextProvider } from "react-router";
import { log, type Logger } from "../runtime/log.server";

/** What a hit effect may read of the request a cached page answers (a subset of a fetch Request). */
export interface CachedRequest {
  method: string;
  headers: { get(name: string): string | null };
}
export type HitEffect = (request: CachedRequest) => void;

export interface RequestValues {
  /** X-Request-Id of this response, in every log line about it. */
  requestId: string;
  /** The client's address through the proxies TRUST_PROXY trusts (app/server/http/proxy.server.ts). */
  clientAddress: string;
  /** The scheme the browser used (through a TLS proxy: https). */
  protocol: "http" | "https";
  /** The Content-Security-Policy nonce of this response ("" until the security headers are set). */
  cspNonce: string;
  /** The request's logger: every line carries its requestId. */
  log: Logger;
  /**
   * Set by the page cache while it keeps what this render makes: effects a loader registers with
   * `repeatOnCacheHit` run again on each later hit.
   */
  pageCacheCapture?: { hitEffects: HitEffect[] };
  /** A sign-in body the sign-in guard read already, within its deadline and limit (sign-in-guard.server.ts). */
  signInBody?: Buffer;
}

const requestValuesContext = createContext<RequestValues>();

/** What server.ts works out about a request; the nonce may be given as its maker, called when first used. */
type FoundValues = Pick<RequestValues, "requestId" | "clientAddress" | "protocol"> & {
  cspNonce: string | (() => string);
};

/**
 * A request's values from what server.ts worked out (the one place they are made from the Node
 * request). Its logger and its CSP nonce are made when first used: a cached page needs neither.
 */
class Values implements RequestValues {
  requestId: string;
  clientAddress: string;
  protocol: "http" | "https";
  pageCacheCapture?: RequestValues["pageCacheCapture"];
  signInBody?: Buffer;
  #nonce: string | (() => string);
  #log: Logger | undefined;

  constructor(found: FoundValues) {
    this.requestId = found.requestId;
    this.clientAddress = found.clientAddress;
    this.protocol = found.protocol;
    this.#nonce = found.cspNonce;
  }

  get cspNonce(): string {
    if (typeof this.#nonce === "function") this.#nonce = this.#nonce();
    return this.#nonce;
  }

  get log(): Logger {
    return (this.#log ??= log.child({ requestId: this.requestId }));
  }
}

export function requestValuesFor(found: FoundValues): RequestValues {
  return new Values(found);
}

/** The context React Router gets for a render of a request with these values. */
export function routerContextFor(values: RequestValues): RouterContextProvider {
  const context = new RouterContextProvider();
  context.set(requestValuesContext, values);
  return context;
}

/** The values server.ts found for this request (any loader, action or entry.server.tsx). */
export function requestValues(context: Readonly<RouterContextProvider>): RequestValues {
  return context.get(requestValuesContext);
}

/** The client's address (rate limits): the one server.ts worked out through the trusted proxies. */
export function clientIp(context: Readonly<RouterContextProvider>): string {
  return requestValues(context).clientAddress;
}
