// Helpers for JSON resource routes. React Router checks the origin of form posts to UI routes only,
// so these routes check it themselves, and read a bounded body.
import { env } from "../runtime/env.server";

export class ApiError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { "Cache-Control": "no-store", ...headers } });
}

/** Throws 403 unless the request comes from a page of this site (Origin, or Sec-Fetch-Site when Origin is absent). */
export function assertSameOrigin(request: Request): void {
  const origin = request.headers.get("origin");
  if (origin) {
    let host: string;
    try {
      host = new URL(origin).host;
    } catch {
      throw new ApiError(403, "Cross-origin request refused");
    }
    const allowed = new Set([new URL(request.url).host, request.headers.get("host") ?? ""]);
    if (env.PUBLIC_URL) allowed.add(new URL(env.PUBLIC_URL).host);
    if (allowed.has(host)) return;
    throw new ApiError(403, "Cross-origin request refused");
  }
  if (request.headers.get("sec-fetch-site") === "same-origin") return;
  throw new ApiError(403, "Cross-origin request refused");
}

/** The body as text, refusing more than maxBytes (by Content-Length and by what actually arrives). */
export async function readBoundedText(request: Request, maxBytes: number): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > maxBytes) throw new ApiError(413, "Request body too large");
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new ApiError(413, "Request body too large");
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** A same-origin POST with a JSON object body of at most maxBytes. */
export async function readJsonObject(request: Request, maxBytes = 32 * 1024): Promise<Record<string, unknown>> {
  if (request.method !== "POST") throw new ApiError(405, "Method not allowed");
  assertSameOrigin(request);
  const text = await readBoundedText(request, maxBytes);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ApiError(400, "Invalid JSON");
  }
  if (!body || typeof body !== "object" || Array.isArray(body)) throw new ApiError(400, "Expected a JSON object");
  return body as Record<string, unknown>;
}

/** readJsonObject for a route's action: the object, or the JSON error Response to return as it is. */
export async function jsonObjectOrErrorResponse(
  request: Request,
  maxBytes: number,
): Promise<Record<string, unknown> | Response> {
  try {
    return await readJsonObject(request, maxBytes);
  } catch (error) {
    if (error instanceof ApiError) return jsonResponse({ error: error.message }, error.status);
    throw error;
  }
}
