// Hostile input, table-driven. Each case is one request; add your routes' forms and fields by adding rows.
// `expect` is the status class the answer must have; none may be a 5xx. `mustNotContain` lists text that
// must not come back unescaped (script/HTML payloads must be escaped on output).

export type StatusClass = "2xx" | "3xx" | "4xx" | "handled";

export interface HostileCase {
  name: string;
  method?: string;
  /** Sent byte for byte (no URL normalisation), so path tricks reach the server as written. */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** A raw HTTP/1.1 request written to a socket, for what an HTTP client refuses to send. */
  raw?: string;
  expect: StatusClass;
  /** An exact status, when one is the only right answer. */
  status?: number;
  mustNotContain?: string[];
}

export const XSS_PAYLOADS = [
  "<script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "</title><script>alert(document.cookie)</script>",
  "<svg/onload=alert(1)>",
  "javascript:alert(1)",
  "'\"><iframe src=javascript:alert(1)>",
  "{{7*7}}${7*7}<%= 7*7 %>",
];

export const SQL_PAYLOADS = [
  "' OR '1'='1",
  "'; DROP TABLE domains; --",
  '" OR ""="',
  "1; SELECT * FROM users",
  "%",
  "_",
  "\\",
  "velora' --",
  "1 UNION SELECT email, password_hash FROM users",
];

export const CONTROL_PAYLOADS = [
  "\u0000",
  "a\u0000b",
  "\r\nSet-Cookie: injected=1",
  "\u001b[31mred",
  "\u007f",
  "\u0008\u0007",
  "tab\there",
];

export const UNICODE_PAYLOADS = [
  "münchen",
  "xn--mnchen-3ya",
  "例え.テスト",
  "xn--r8jz45g.xn--zckzah",
  "😀",
  "\u202egnp.exe",
  "zero\u200bwidth",
  "e\u0301\u0301\u0301",
  "xn--",
  "xn--zzzzzzzzzz",
  "ＡＢＣ",
  "İstanbul",
];

export const PATH_TRICKS = [
  "..%2F..%2Fetc%2Fpasswd",
  "..%252F..%252Fetc%252Fpasswd",
  "%2e%2e%2f%2e%2e%2fadmin",
  "....%2F%2F",
  "%C0%AE%C0%AE%2F",
  "%",
  "%E0%A4%A",
  "%ZZ",
  "velora%2F..%2F..%2Fadmin",
  ".",
  "..",
];

export const LONG_VALUES = ["a".repeat(300), "a".repeat(5_000), `${"a".repeat(63)}.`.repeat(10) + "com"];

/** Text for a path segment or query value: percent-encoded like a browser would send it. */
export function encoded(value: string): string {
  return encodeURIComponent(value);
}

/** Is the payload an HTML/script one that must come back escaped? */
function htmlProbe(value: string): string[] {
  return /[<>]/.test(value) ? [value] : [];
}

const everyPayload = [...XSS_PAYLOADS, ...SQL_PAYLOADS, ...CONTROL_PAYLOADS, ...UNICODE_PAYLOADS, ...LONG_VALUES];

function pathParameterCases(route: string, label: string, found: StatusClass): HostileCase[] {
  const cases: HostileCase[] = everyPayload.map((payload) => ({
    name: `${label} parameter: ${JSON.stringify(payload).slice(0, 40)}`,
    path: `${route}${encoded(payload)}`,
    expect: found,
    mustNotContain: htmlProbe(payload),
  }));
  for (const trick of PATH_TRICKS)
    cases.push({ name: `${label} path trick ${trick}`, path: `${route}${trick}`, expect: "handled" });
  return cases;
}

export const buyerCases: HostileCase[] = [
  // Route parameters: a hostile name is simply not listed (404 view), never a 500.
  ...pathParameterCases("/domain/", "domain", "4xx"),
  ...pathParameterCases("/contact/", "contact", "2xx").map((c) =>
    c.name.includes("path trick") ? c : { ...c, expect: "handled" as const },
  ),
  // The search box: any term gives the list (maybe empty), the term shown escaped.
  ...everyPayload.map<HostileCase>((payload) => ({
    name: `search q=${JSON.stringify(payload).slice(0, 40)}`,
    path: `/?q=${encoded(payload)}`,
    expect: "2xx",
    mustNotContain: htmlProbe(payload),
  })),
  ...[
    "-1",
    "0",
    "NaN",
    "Infinity",
    "1e309",
    "99999999999999999999",
    "1.5",
    "abc",
    "",
    "%00",
    "<b>2</b>",
  ].map<HostileCase>((page) => ({
    name: `page=${page}`,
    path: `/?page=${encoded(page)}`,
    expect: "2xx",
    mustNotContain: htmlProbe(page),
  })),
  { name: "q given twice", path: "/?q=velora&q=%3Cscript%3E", expect: "2xx", mustNotContain: ["<script>"] },
  { name: "q as array syntax", path: "/?q[]=velora&q[$ne]=1", expect: "2xx" },
  { name: "query of 6000 characters", path: `/?q=${"x".repeat(6_000)}`, expect: "2xx" },
  // Unknown pages and path tricks at the top level.
  ...PATH_TRICKS.map<HostileCase>((trick) => ({
    name: `top-level path trick ${trick}`,
    path: `/${trick}`,
    expect: "handled",
  })),
  ...XSS_PAYLOADS.map<HostileCase>((payload) => ({
    name: `unknown page ${JSON.stringify(payload).slice(0, 30)}`,
    path: `/${encoded(payload)}`,
    expect: "4xx",
    mustNotContain: htmlProbe(payload),
  })),
  {
    name: "assets path traversal",
    path: "/assets/..%2F..%2Fpackage.json",
    expect: "4xx",
    mustNotContain: ['"dependencies"'],
  },
  { name: "assets double-dot", path: "/assets/../../server.ts", expect: "4xx", mustNotContain: ["createServerApp"] },
  { name: "dot file", path: "/.env", expect: "4xx" },
  { name: "build folder", path: "/build/server/index.js", expect: "4xx" },
  { name: "very long path", path: `/${"a".repeat(8_000)}`, expect: "4xx" },
  { name: "event stream with a query", path: "/events/fee?x=%3Cscript%3E", expect: "2xx" },
  { name: "health check with a query", path: "/healthz?%00=%00", expect: "2xx" },
  {
    name: "React Router data request for a hostile name",
    path: "/domain/%3Cscript%3E.data",
    expect: "4xx",
    mustNotContain: ["<script>"],
  },
  { name: "root data request", path: "/_root.data", expect: "handled" },
  { name: "manifest request with junk", path: "/__manifest?p=%2F..%2F..&version=%00", expect: "handled" },
];

// Headers a client controls.
export const headerCases: HostileCase[] = [
  // A strange Host never steers the app (it sees "localhost"); one it cannot form a URL from gets 400.
  ...[
    "evil.example",
    "a/b@c",
    "[::1",
    "",
    "x".repeat(4_000),
    "localhost:3000/../admin",
    "xn--r8jz45g",
    "evil.example:99999",
  ].map<HostileCase>((host) => ({
    name: `Host: ${host.slice(0, 30)}`,
    path: "/domain/velora",
    headers: { Host: host },
    expect: "handled",
  })),
  {
    name: "Host: unicode bytes",
    raw: "GET /domain/velora HTTP/1.1\r\nHost: \u00e4\u00f6.example\r\nConnection: close\r\n\r\n",
    path: "/",
    expect: "handled",
  },
  { name: "Host header with CR LF", raw: "GET / HTTP/1.1\r\nHost: a\r\n b\r\n\r\n", path: "/", expect: "handled" },
  {
    name: "two Host headers",
    raw: "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n",
    path: "/",
    expect: "handled",
  },
  { name: "no Host header", raw: "GET / HTTP/1.1\r\n\r\n", path: "/", expect: "4xx" },
  {
    name: "absolute-form target",
    raw: "GET http://evil.example/ HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n",
    path: "/",
    expect: "4xx",
    status: 400,
  },
  { name: "NUL in the path (raw)", raw: "GET /domain/a\u0000b HTTP/1.1\r\nHost: x\r\n\r\n", path: "/", expect: "4xx" },
  // Without TRUST_PROXY a client's X-Forwarded-Host must not reach links or canonical URLs.
  {
    name: "X-Forwarded-Host spoof",
    path: "/domain/velora",
    headers: { "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "javascript" },
    expect: "2xx",
    mustNotContain: ["evil.example", "javascript:"],
  },
  {
    name: "X-Forwarded-For spoof",
    path: "/",
    headers: { "X-Forwarded-For": "<script>, 1.1.1.1", "X-Real-Client-Ip": "6.6.6.6" },
    expect: "2xx",
  },
  ...["https://evil.example", "null", "<script>", "x".repeat(3_000)].map<HostileCase>((origin) => ({
    name: `GET with Origin ${origin.slice(0, 20)}`,
    path: "/domain/velora",
    headers: { Origin: origin },
    expect: "2xx",
  })),
  { name: "Accept: garbage", path: "/", headers: { Accept: "*/*;q=;;;<>" }, expect: "2xx" },
  {
    name: "Accept-Encoding: garbage",
    path: "/",
    headers: { "Accept-Encoding": "gzip;q=abc, br;q=-1, *" },
    expect: "2xx",
  },
  { name: "Accept-Language: huge", path: "/", headers: { "Accept-Language": "en,".repeat(2_000) }, expect: "2xx" },
  { name: "Cookie: malformed", path: "/", headers: { Cookie: "__session=%%%; =; ;;a" }, expect: "2xx" },
  {
    name: "Cookie: forged session",
    path: "/",
    headers: { Cookie: "__session=eyJ1c2VySWQiOjF9.forged" },
    expect: "2xx",
  },
  { name: "User-Agent: script", path: "/", headers: { "User-Agent": "<script>alert(1)</script>" }, expect: "2xx" },
  {
    name: "User-Agent: a bot (waits for all content)",
    path: "/domain/velora",
    headers: { "User-Agent": "Googlebot/2.1" },
    expect: "2xx",
  },
  {
    name: "Range on an asset beyond its end",
    path: "/favicon.ico",
    headers: { Range: "bytes=999999999-" },
    expect: "handled",
  },
  { name: "If-None-Match junk", path: "/", headers: { "If-None-Match": '"<script>"' }, expect: "2xx" },
  { name: "headers too large", path: "/", headers: { "X-Big": "x".repeat(20_000) }, expect: "4xx", status: 431 },
];

const FORM = { "Content-Type": "application/x-www-form-urlencoded" };

// Methods and bodies sent to pages that have no form.
export const bodyCases: HostileCase[] = [
  ...["PUT", "DELETE", "PATCH", "OPTIONS", "PROPFIND"].map<HostileCase>((method) => ({
    name: `${method} a page`,
    method,
    path: "/domain/velora",
    expect: "4xx",
  })),
  { name: "TRACE", method: "TRACE", path: "/", expect: "4xx" },
  {
    name: "POST to a page without a form",
    method: "POST",
    path: "/domain/velora",
    headers: FORM,
    body: "a=1",
    expect: "4xx",
    status: 405,
  },
  { name: "POST to the event stream", method: "POST", path: "/events/fee", headers: FORM, body: "a=1", expect: "4xx" },
  {
    name: "POST to the health check",
    method: "POST",
    path: "/healthz",
    headers: { "Content-Type": "application/json" },
    body: "{}",
    expect: "4xx",
  },
  {
    name: "POST JSON to a page",
    method: "POST",
    path: "/contact/velora",
    headers: { "Content-Type": "application/json" },
    body: '{"a":',
    expect: "4xx",
  },
  {
    name: "POST XML to a page",
    method: "POST",
    path: "/",
    headers: { "Content-Type": "text/xml" },
    body: "<!DOCTYPE x [<!ENTITY e SYSTEM 'file:///etc/passwd'>]><x>&e;</x>",
    expect: "4xx",
  },
  {
    name: "POST multipart without boundary",
    method: "POST",
    path: "/contact/velora",
    headers: { "Content-Type": "multipart/form-data" },
    body: "--x\r\n",
    expect: "4xx",
  },
  { name: "POST with no Content-Type", method: "POST", path: "/contact/velora", body: "a=1", expect: "4xx" },
  {
    name: "POST with Content-Length over the limit",
    method: "POST",
    path: "/contact/velora",
    headers: { ...FORM, "Content-Length": String(50 * 1024 * 1024) },
    body: "a=1",
    expect: "4xx",
    status: 413,
  },
  {
    name: "POST body over the limit",
    method: "POST",
    path: "/contact/velora",
    headers: FORM,
    body: Buffer.alloc(2 * 1024 * 1024, "a"),
    expect: "4xx",
    status: 413,
  },
  {
    name: "POST with a negative Content-Length",
    raw: "POST /contact/velora HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n",
    path: "/",
    expect: "4xx",
    status: 400,
  },
  {
    name: "POST with Content-Length and chunked",
    raw: "POST /contact/velora HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    path: "/",
    expect: "4xx",
  },
  {
    name: "POST with a broken chunk",
    raw: "POST /contact/velora HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n",
    path: "/",
    expect: "4xx",
  },
  {
    name: "POST with cross-site Origin",
    method: "POST",
    path: "/contact/velora",
    headers: { ...FORM, Origin: "https://evil.example" },
    body: "a=1",
    expect: "4xx",
  },
];
