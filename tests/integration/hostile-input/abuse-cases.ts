// Abuse that one client could use against everyone (issue 14): large or misplaced uploads, forged
// cache-key and device-cookie headers. The floods themselves (300 sign-ins, 200 live-fee streams, 500
// made-up searches and 404s) have their own tests: admin-rate-limit, fee-stream-limits, page-cache-churn.
import type { HostileCase } from "./cases";

const SIGNED_IN = { Cookie: "{session}" };
const multipart = (size: number) =>
  Buffer.concat([
    Buffer.from('--abuse\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\n\r\n'),
    Buffer.alloc(size, "a"),
    Buffer.from("\r\n--abuse--\r\n"),
  ]);
const MULTIPART = { "Content-Type": "multipart/form-data; boundary=abuse", Origin: "{origin}" };

export const abuseCases: HostileCase[] = [
  // Only the signed-in admin's import may be larger than MAX_BODY_BYTES (1 MiB by default).
  {
    name: "anonymous 2 MB upload to the import",
    method: "POST",
    path: "/admin/portfolio",
    headers: MULTIPART,
    body: multipart(2 * 1024 * 1024),
    expect: "4xx",
    status: 413,
  },
  {
    name: "anonymous 2 MB upload to a buyer page",
    method: "POST",
    path: "/payment/velora",
    headers: MULTIPART,
    body: multipart(2 * 1024 * 1024),
    expect: "4xx",
    status: 413,
  },
  {
    name: "signed-in 2 MB multipart to the panel (not the import)",
    method: "POST",
    path: "/admin",
    headers: { ...MULTIPART, ...SIGNED_IN },
    body: multipart(2 * 1024 * 1024),
    expect: "4xx",
    status: 413,
  },
  {
    name: "multipart to the panel's actions",
    method: "POST",
    path: "/admin",
    headers: { ...MULTIPART, ...SIGNED_IN },
    body: multipart(10),
    expect: "4xx",
    status: 415,
  },
  {
    name: "multipart sign-in",
    method: "POST",
    path: "/admin",
    headers: MULTIPART,
    body: '--abuse\r\nContent-Disposition: form-data; name="intent"\r\n\r\nlogin\r\n--abuse--\r\n',
    expect: "4xx",
    status: 415,
  },
  {
    name: "multipart to the inbox",
    method: "POST",
    path: "/admin/inquiries",
    headers: { ...MULTIPART, ...SIGNED_IN },
    body: multipart(10),
    expect: "4xx",
    status: 415,
  },
  {
    name: "broken multipart to the import",
    method: "POST",
    path: "/admin/portfolio",
    headers: { ...MULTIPART, ...SIGNED_IN },
    body: "--abuse\r\nbroken",
    expect: "4xx",
    status: 400,
  },
  // Cache-key tricks: values pages do not read, reflected nowhere.
  {
    name: "cached page with a script in an unread parameter",
    path: "/domain/velora?utm_source=%3Cscript%3Ealert(1)%3C/script%3E",
    expect: "2xx",
    mustNotContain: ["<script>alert(1)</script>", "utm_source"],
  },
  {
    name: "cached page with forged forwarded headers",
    path: "/contact/velora",
    headers: { "X-Forwarded-Proto": "javascript", "X-Forwarded-Host": "<script>alert(1)</script>" },
    expect: "2xx",
    mustNotContain: ["<script>alert(1)</script>", "javascript://"],
  },
  { name: "search of 10,000 characters", path: `/?q=${"a".repeat(10_000)}`, expect: "2xx" },
  { name: "page number past the end", path: "/?page=999999999999", expect: "2xx" },
  // A device cookie the attacker made up for the admin's email: not trusted, the sign-in is refused.
  {
    name: "sign-in with a forged device cookie",
    method: "POST",
    path: "/admin",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: "{origin}",
      Cookie: "admin_device=eyJlbWFpbCI6Imhvc3RpbGUtYWRtaW5AZXhhbXBsZS50ZXN0IiwiaWQiOiJ4In0%3D.forged",
    },
    body: "intent=login&email=hostile-admin%40example.test&password=not-the-password",
    expect: "4xx",
  },
  {
    name: "live fee with a forged client address header",
    path: "/events/fee",
    headers: { "X-Real-Client-Ip": "1.2.3.4", "X-Forwarded-For": "<script>" },
    expect: "2xx",
  },
];
