// Hostile input for the signed-in admin's forms and query strings. "{session}" is replaced by a real
// admin session cookie and "{id}" by a domain made for these cases; "{origin}" by the server's origin.
import { encoded, SQL_PAYLOADS, UNICODE_PAYLOADS, XSS_PAYLOADS, type HostileCase } from "./cases";

const ADMIN = { Cookie: "{session}" };
const FORM = { ...ADMIN, "Content-Type": "application/x-www-form-urlencoded", Origin: "{origin}" };

function form(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}
function html(value: string): string[] {
  return /[<>]/.test(value) ? [value] : [];
}

export const MONEY_PAYLOADS = [
  "-1",
  "-0.01",
  "NaN",
  "Infinity",
  "-Infinity",
  "1e309",
  "1e308",
  "99999999999999",
  "0.001",
  "1,5",
  "$5",
  "5$",
  "",
  " ",
  "0x10",
  "1e2",
  "\u0000",
  "١٢",
  "1".repeat(400),
  "<script>alert(1)</script>",
  "' OR 1=1 --",
];
const ID_PAYLOADS = ["-1", "0", "NaN", "1e309", "' OR 1=1", "99999999999999999999", "<b>1</b>", "", "1.5", "999999"];

const DOMAIN_NAMES = [
  ...XSS_PAYLOADS.slice(0, 3),
  ...SQL_PAYLOADS.slice(0, 3),
  ...UNICODE_PAYLOADS.slice(0, 6),
  "../../etc/passwd.com",
  "a".repeat(300) + ".com",
  "-bad-.com",
  "x..com",
  ".com",
  "com",
  "www.",
  "EXAMPLE.COM.",
  " spaced.com ",
  "under_score.com",
];

export const adminCases: HostileCase[] = [
  ...MONEY_PAYLOADS.map<HostileCase>((fee) => ({
    name: `admin fee=${JSON.stringify(fee).slice(0, 30)}`,
    method: "POST",
    path: "/admin",
    headers: FORM,
    body: form({ intent: "fee", fee }),
    expect: "handled",
    mustNotContain: html(fee),
  })),
  ...MONEY_PAYLOADS.map<HostileCase>((price) => ({
    name: `admin price=${JSON.stringify(price).slice(0, 30)}`,
    method: "POST",
    path: "/admin",
    headers: FORM,
    body: form({ intent: "price", id: "{id}", price }),
    expect: "handled",
    mustNotContain: html(price),
  })),
  ...ID_PAYLOADS.flatMap<HostileCase>((id) => [
    {
      name: `admin price for id=${id.slice(0, 20)}`,
      method: "POST",
      path: "/admin",
      headers: FORM,
      body: form({ intent: "price", id, price: "5" }),
      expect: "4xx",
      mustNotContain: html(id),
    },
    {
      name: `admin delete id=${id.slice(0, 20)}`,
      method: "POST",
      path: "/admin",
      headers: FORM,
      body: form({ intent: "delete", id }),
      expect: "4xx",
      mustNotContain: html(id),
    },
    // Marking a missing inquiry answered is a harmless no-op (a redirect back): only never a 5xx.
    {
      name: `inbox answer id=${id.slice(0, 20)}`,
      method: "POST",
      path: "/admin/inquiries",
      headers: FORM,
      body: form({ intent: "answer", id }),
      expect: "handled",
      mustNotContain: html(id),
    },
    {
      name: `inbox refund id=${id.slice(0, 20)}`,
      method: "POST",
      path: "/admin/inquiries",
      headers: FORM,
      body: form({ intent: "refund", id }),
      expect: "4xx",
      mustNotContain: html(id),
    },
  ]),
  ...DOMAIN_NAMES.map<HostileCase>((domainName) => ({
    name: `admin add domainName=${JSON.stringify(domainName).slice(0, 30)}`,
    method: "POST",
    path: "/admin",
    headers: FORM,
    body: form({ intent: "add", domainName, askingPrice: "100", trackingId: "t", ownerEmail: "o@example.test" }),
    expect: "handled",
    mustNotContain: html(domainName),
  })),
  ...MONEY_PAYLOADS.map<HostileCase>((askingPrice) => ({
    name: `admin add askingPrice=${JSON.stringify(askingPrice).slice(0, 30)}`,
    method: "POST",
    path: "/admin",
    headers: FORM,
    body: form({
      intent: "add",
      domainName: `price-${encoded(askingPrice).length}-${askingPrice.length}.example`,
      askingPrice,
      trackingId: "t",
      ownerEmail: "o@example.test",
    }),
    expect: "handled",
    mustNotContain: html(askingPrice),
  })),
  ...[
    ...XSS_PAYLOADS.slice(0, 3),
    "a".repeat(5_000),
    "\u0000",
    "not-an-email",
    "a@b",
    "<x@example.test>",
    "x@example.test\r\nBcc: all@example.test",
  ].flatMap<HostileCase>((value, index) => [
    {
      name: `admin add trackingId=${JSON.stringify(value).slice(0, 25)}`,
      method: "POST",
      path: "/admin",
      headers: FORM,
      body: form({
        intent: "add",
        domainName: `tracking-${index}-${Date.now()}.example`,
        askingPrice: "1",
        trackingId: value,
        ownerEmail: "o@example.test",
      }),
      expect: "handled",
      mustNotContain: html(value),
    },
    {
      name: `admin add ownerEmail=${JSON.stringify(value).slice(0, 25)}`,
      method: "POST",
      path: "/admin",
      headers: FORM,
      body: form({
        intent: "add",
        domainName: `owner-${index}-${Date.now()}.example`,
        askingPrice: "1",
        trackingId: "t",
        ownerEmail: value,
      }),
      expect: "handled",
      mustNotContain: html(value),
    },
  ]),
  {
    name: "admin unknown intent",
    method: "POST",
    path: "/admin",
    headers: FORM,
    body: form({ intent: "drop-tables" }),
    expect: "4xx",
    status: 400,
  },
  {
    name: "admin form as JSON",
    method: "POST",
    path: "/admin",
    headers: { ...FORM, "Content-Type": "application/json" },
    body: '{"intent":"fee","fee":"0"}',
    expect: "4xx",
    status: 415,
  },
  {
    name: "admin form from another site",
    method: "POST",
    path: "/admin",
    headers: { ...FORM, Origin: "https://evil.example" },
    body: form({ intent: "fee", fee: "0" }),
    expect: "4xx",
  },
  {
    name: "inbox unknown intent",
    method: "POST",
    path: "/admin/inquiries",
    headers: FORM,
    body: form({ intent: "delete-all", id: "1" }),
    expect: "4xx",
  },

  // Query strings of the admin pages.
  ...["q", "sort", "page", "edit", "delete", "notice"].flatMap((param) =>
    ["<script>alert(1)</script>", "' OR 1=1 --", "-1", "1e309", "NaN", "%00", "a".repeat(2_000)].map<HostileCase>(
      (value) => ({
        name: `admin ?${param}=${JSON.stringify(value).slice(0, 25)}`,
        path: `/admin?${param}=${value === "%00" ? value : encoded(value)}`,
        headers: ADMIN,
        expect: "2xx",
        mustNotContain: html(value),
      }),
    ),
  ),
  ...["status", "domain", "q", "page"].flatMap((param) =>
    ["<script>alert(1)</script>", "' OR 1=1 --", "-1", "1e309"].map<HostileCase>((value) => ({
      name: `inbox ?${param}=${JSON.stringify(value).slice(0, 25)}`,
      path: `/admin/inquiries?${param}=${encoded(value)}`,
      headers: ADMIN,
      expect: "handled",
      mustNotContain: html(value),
    })),
  ),
  ...["/admin/export/domains.csv", "/admin/export/inquiries.csv"].map<HostileCase>((path) => ({
    name: `export ${path} with junk query`,
    path: `${path}?q=${encoded("<script>")}&status=${encoded("' OR 1=1")}`,
    headers: ADMIN,
    expect: "2xx",
  })),

  // The portfolio CSV import (multipart).
  ...[
    ["empty file", ""],
    ["header only", "domain_name,asking_price\n"],
    ["formula injection", 'domain_name,asking_price,tracking_id\n=cmd|"/c calc"!A1.com,1,=HYPERLINK("http://evil")\n'],
    ["script names", "domain_name,asking_price\n<script>alert(1)</script>.com,1\n"],
    [
      "NaN and 1e309 prices",
      "domain_name,asking_price\nnanprice.example,NaN\ninfprice.example,1e309\nnegprice.example,-5\n",
    ],
    ["unterminated quote", 'domain_name,asking_price\n"open.example,1\n'],
    ["binary", "\u0000\u0001\u0002\uFFFD\n\u0000"],
    ["one huge line", `domain_name,asking_price\n${"a".repeat(200_000)}.com,1\n`],
    ["wrong columns", "foo,bar,baz\n1,2,3\n"],
    ["unicode names", "domain_name,asking_price\nmünchen.example,100\n例え.テスト,200\n"],
  ].map<HostileCase>(([label, csv]) => {
    const boundary = "----hostile";
    return {
      name: `CSV import: ${label}`,
      method: "POST",
      path: "/admin/portfolio",
      headers: { ...ADMIN, Origin: "{origin}", "Content-Type": `multipart/form-data; boundary=${boundary}` },
      body: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="import.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`,
      expect: "handled",
      mustNotContain: ["<script>alert(1)</script>"],
    };
  }),
  {
    name: "CSV import without a file",
    method: "POST",
    path: "/admin/portfolio",
    headers: { ...ADMIN, Origin: "{origin}", "Content-Type": "multipart/form-data; boundary=x" },
    body: "--x--\r\n",
    expect: "4xx",
  },
  {
    name: "CSV import with a filename trick",
    method: "POST",
    path: "/admin/portfolio",
    headers: { ...ADMIN, Origin: "{origin}", "Content-Type": "multipart/form-data; boundary=x" },
    body: '--x\r\nContent-Disposition: form-data; name="file"; filename="../../<script>.csv"\r\n\r\ndomain_name,asking_price\r\n--x--\r\n',
    expect: "handled",
    mustNotContain: ["<script>.csv"],
  },
];
