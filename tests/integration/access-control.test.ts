// Every route under /admin, taken from the route table itself, asked anonymously (GET, React Router data
// requests, and POSTs of every admin form): the answer is the login screen, a redirect to it, 401 or 403,
// never admin data, and nothing changes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import routes from "../../app/routes";
import { removeDataDir, startAppServer, type AppServer } from "../support/app-server";
import { insertDomain, uniqueDomainName } from "../support/data";

type RouteEntry = { path?: string; index?: boolean; children?: RouteEntry[] };

function flatten(entries: RouteEntry[], prefix = ""): string[] {
  return entries.flatMap((entry) => {
    const path = entry.path ? `${prefix}/${entry.path}`.replace(/\/+/g, "/") : prefix || "/";
    return [path, ...flatten(entry.children ?? [], path)];
  });
}

const adminPaths = [...new Set(flatten(routes as RouteEntry[]))]
  .filter((path) => /^\/admin(\/|$)/.test(path))
  .map((path) => path.replace(/:[^/]+/g, "1").replace(/\*$/, "anything"));

const SECRETS = {
  owner: "owner-secret@example.test",
  tracker: "tracker-secret-42",
  buyer: "buyer-secret@example.test",
  message: "inquiry-secret-message",
};
const POSTED_FORMS = [
  { intent: "fee", fee: "0.01" },
  { intent: "price", id: "{id}", price: "1" },
  { intent: "delete", id: "{id}" },
  { intent: "add", domainName: "hijack-example.com", askingPrice: "1", trackingId: "x", ownerEmail: "x@example.test" },
  { intent: "answer", id: "{inquiry}" },
  { intent: "refund", id: "{inquiry}" },
  { intent: "logout" },
  { intent: "anything-else" },
];

let app: AppServer;
let domainId: number;
let inquiryId: number;
let feeBefore: unknown;
const notes: string[] = [];

beforeAll(async () => {
  app = await startAppServer();
  const db = app.db();
  const name = uniqueDomainName("guarded");
  domainId = insertDomain(db, { name, priceCents: 777_700, trackingId: SECRETS.tracker, ownerEmail: SECRETS.owner });
  feeBefore = db.prepare("SELECT value, updated_at FROM settings WHERE key = 'inquiry_fee'").get();
  const now = new Date().toISOString();
  inquiryId = Number(
    db
      .prepare(
        `INSERT INTO inquiries (public_id, domain_id, domain_name, name, email, phone, message, offer, amount_cents, currency, status, provider, created_at, paid_at)
         VALUES ('pub-guarded', ?, ?, 'Secret Buyer', ?, '', ?, '', 1999, 'usd', 'paid', 'test', ?, ?)`,
      )
      .run(domainId, name, SECRETS.buyer, SECRETS.message, now, now).lastInsertRowid,
  );
});
afterAll(async () => {
  await app.stop();
  removeDataDir(app);
});

function expectNoAdminData(label: string, status: number, body: string, location: string | null) {
  for (const secret of Object.values(SECRETS)) expect(body, `${label} leaks ${secret}`).not.toContain(secret);
  expect(body, label).not.toContain("Sign Out");
  expect(status, label).toBeLessThan(500);
  // The login screen as a page, or as the data of a React Router data request ({signedIn: false}).
  const loginScreen = body.includes("Admin Login") || /"signedIn",false[\],]/.test(body);
  const redirectToLogin =
    status >= 300 && status < 400 && location !== null && new URL(location, app.url).pathname === "/admin";
  // React Router data requests carry a redirect inside the body (status 202) instead of a Location.
  const dataRedirect = status === 202 && /"\/admin"/.test(body);
  // 405: a route without an action (an export) cannot be posted to at all; 415: multipart is taken
  // only by the portfolio import.
  const refused = status === 401 || status === 403 || status === 405 || status === 415;
  expect(
    loginScreen || redirectToLogin || dataRedirect || refused,
    `${label}: ${status} ${location ?? ""} ${body.slice(0, 200)}`,
  ).toBe(true);
  notes.push(`${label} -> ${status}${location ? ` ${location}` : ""}`);
}

describe("admin routes refuse anonymous visitors", () => {
  it("finds the admin routes in the route table", () => {
    expect(adminPaths).toContain("/admin");
    expect(adminPaths.length).toBeGreaterThan(1);
  });

  it.each(adminPaths)(
    "GET %s (page and data request) shows the login screen or redirects, never data",
    async (path) => {
      for (const target of [path, `${path}.data`, `${path}?q=guarded&page=1`]) {
        const response = await fetch(new URL(target, app.url), { redirect: "manual" });
        expectNoAdminData(`GET ${target}`, response.status, await response.text(), response.headers.get("location"));
      }
    },
  );

  it.each(adminPaths)("POST %s with every admin form changes nothing and shows no data", async (path) => {
    for (const fields of POSTED_FORMS) {
      const body = new URLSearchParams(
        Object.entries(fields).map(([key, value]) => [
          key,
          value.replace("{id}", String(domainId)).replace("{inquiry}", String(inquiryId)),
        ]),
      );
      for (const target of [path, `${path}.data`]) {
        const response = await fetch(new URL(target, app.url), {
          method: "POST",
          redirect: "manual",
          headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: app.origin },
          body,
        });
        expectNoAdminData(
          `POST ${target} intent=${fields.intent}`,
          response.status,
          await response.text(),
          response.headers.get("location"),
        );
      }
    }
    const boundary = "----guard";
    const csv = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.csv"\r\nContent-Type: text/csv\r\n\r\ndomain_name,asking_price\r\nhijack-csv.com,1\r\n\r\n--${boundary}--\r\n`;
    const upload = await fetch(new URL(path, app.url), {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": `multipart/form-data; boundary=${boundary}`, Origin: app.origin },
      body: csv,
    });
    expectNoAdminData(`POST ${path} CSV upload`, upload.status, await upload.text(), upload.headers.get("location"));
  });

  it("left the fee, the domain, its price and the inquiry untouched", async () => {
    const db = app.db();
    const domain = db.prepare("SELECT asking_price_cents, deleted_at FROM domains WHERE id = ?").get(domainId);
    expect(domain).toEqual({ asking_price_cents: 777_700, deleted_at: null });
    expect(db.prepare("SELECT value, updated_at FROM settings WHERE key = 'inquiry_fee'").get()).toEqual(feeBefore);
    expect(db.prepare("SELECT count(*) AS n FROM domains WHERE domain_name LIKE 'hijack%'").get()).toEqual({ n: 0 });
    expect(db.prepare("SELECT status, answered_at, refunded_at FROM inquiries WHERE id = ?").get(inquiryId)).toEqual({
      status: "paid",
      answered_at: null,
      refunded_at: null,
    });
    console.log(
      `access control: ${adminPaths.length} admin routes (${adminPaths.join(", ")}), ${notes.length} anonymous requests, all refused`,
    );
  });
});
