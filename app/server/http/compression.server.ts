// Compression, decided in one module: whole pages (the page cache's variants) are
// compressed here from their identity body; every other response streams through `compressStreamed`.
// The page cache renders a page into memory uncompressed, stores the identity page and makes each
// encoding once.
import compression from "compression";
import type { IncomingMessage, ServerResponse } from "node:http";
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";

export type Encoding = "br" | "gzip" | "identity";
/** Smaller pages go out as they are. */
export const MIN_COMPRESS_BYTES = 1024;

/**
 * Responses that are not whole pages (static files, admin and payment pages, data requests). Event
 * streams must reach the browser at once, not sit in the compressor's buffer.
 */
export const compressStreamed: (req: IncomingMessage, res: ServerResponse, next: () => void) => void = compression({
  filter: (req, res) =>
    !String(res.getHeader("Content-Type") ?? "").startsWith("text/event-stream") && compression.filter(req, res),
}) as never;

/**
 * A whole page in `encoding`. Quality 5 costs about a millisecond per page; 9 and up cost tens of
 * milliseconds for a few percent. A first render gets gzip at level 1: most pages of a large portfolio
 * are seen once (crawlers), and for those more CPU would cost more than the render saved.
 */
export function compressPage(page: Buffer, encoding: Exclude<Encoding, "identity">, firstRender: boolean): Buffer {
  return encoding === "br"
    ? brotliCompressSync(page, {
        params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: page.length },
      })
    : gzipSync(page, { level: firstRender ? zlib.Z_BEST_SPEED : 9 });
}

/** br, then gzip, then identity, honouring q=0 refusals. */
export function chooseEncoding(header: string | string[] | undefined): Encoding {
  if (!header) return "identity";
  const text = Array.isArray(header) ? header.join(",") : header;
  let gzip = false;
  let br = false;
  for (const part of text.split(",")) {
    const [rawName, ...params] = part.split(";");
    const name = rawName!.trim().toLowerCase();
    const refused = params.some((param) => /^\s*q\s*=\s*0(?:\.0*)?\s*$/.test(param));
    if (refused) continue;
    if (name === "br") br = true;
    else if (name === "gzip" || name === "*") gzip = true;
  }
  return br ? "br" : gzip ? "gzip" : "identity";
}

/** Whether the client takes gzip (or anything, "*"), honouring a q=0 refusal. */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  if (!header) return false;
  const text = Array.isArray(header) ? header.join(",") : header;
  for (const part of text.split(",")) {
    const [rawName, ...params] = part.split(";");
    const name = rawName!.trim().toLowerCase();
    if (name !== "gzip" && name !== "*") continue;
    if (!params.some((param) => /^\s*q\s*=\s*0(?:\.0*)?\s*$/.test(param))) return true;
  }
  return false;
}
