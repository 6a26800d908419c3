// Accept-Encoding reading shared by the page cache and the direct page path (no imports: server.ts
// loads it from source while the app's own copy is in the build).

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
