import { beforeAll, describe, expect, it } from "vitest";
import { adminCookie, insertPaidInquiry, TEST_ADMIN } from "../support/admin";
import { runScript } from "../support/app-server";
import { useAppServer } from "../support/vitest-server";
import { insertDomain, insertRows, uniqueDomainName } from "../support/data";
import { http, visibleText } from "./admin-helpers";

const app = useAppServer({ env: { ADMIN_EMAIL: TEST_ADMIN.email, ADMIN_PASSWORD: TEST_ADMIN.password } });
let cookie: string;
beforeAll(async () => {
  cookie = await adminCookie(app.url);
});

const fee = () =>
  (app.db().prepare("SELECT value FROM settings WHERE key = 'inquiry_fee'").get() as { value: string } | undefined)
    ?.value;
const domainRow = (name: string) =>
  app.db().prepare("SELECT * FROM domains WHERE domain_name = ? ORDER BY id DESC").get(name) as
    | { id: number; asking_price_cents: number; deleted_at: string | null; owner_email: string; tracking_id: string }
    | undefined;

describe("sign-in and sessions", () => {
  it("shows the login screen, not data, to an anonymous visitor", async () => {
    const page = await http(app, "/admin");
    expect(page.status).toBe(200);
    const text = visibleText(page.body);
    expect(text).toContain("Admin Login");
    expect(text).toContain("Sign in to manage domains");
    expect(page.body).toMatch(/<input[^>]*type="email"[^>]*required/);
    expect(page.body).toMatch(/<input[^>]*type="password"[^>]*required=""[^>]*minLength="6"/);
    expect(text).not.toContain("Total Domains");
    expect(page.body).not.toContain("velora.com");
  });

  it("refuses a wrong password with a message and a short password as invalid", async () => {
    const wrong = await http(app, "/admin", {
      form: { intent: "login", email: TEST_ADMIN.email, password: "wrong-password" },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatch(/role="alert"[^>]*>Invalid email or password\./);
    expect(wrong.headers.get("set-cookie")).toBeNull();
    const short = await http(app, "/admin", { form: { intent: "login", email: TEST_ADMIN.email, password: "abc" } });
    expect(short.status).toBe(400);
    expect(visibleText(short.body)).toContain("Password must be at least 6 characters");
  });

  it("signs in with an httpOnly, SameSite=Lax session cookie (not Secure over http) and redirects to the panel", async () => {
    const response = await http(app, "/admin", {
      form: { intent: "login", email: "ADMIN@example.test", password: TEST_ADMIN.password },
    });
    expect(response.status).toBe(303);
    expect(response.location).toBe("/admin");
    const setCookie = response.headers.get("set-cookie")!;
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).not.toMatch(/Secure/i);
    const panel = await http(app, "/admin", { cookie: setCookie.split(";")[0] });
    const text = visibleText(panel.body);
    expect(text).toContain("Admin Panel");
    expect(text).toContain("Sign Out");
  });

  it("revokes the session on sign-out: the old cookie no longer opens the panel", async () => {
    const mine = await adminCookie(app.url);
    const sessionsBefore = (app.db().prepare("SELECT count(*) AS n FROM sessions").get() as { n: number }).n;
    const out = await http(app, "/admin", { cookie: mine, form: { intent: "logout" } });
    expect(out.status).toBe(303);
    expect(out.location).toBe("/admin");
    expect(out.headers.get("set-cookie")).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/i);
    expect((app.db().prepare("SELECT count(*) AS n FROM sessions").get() as { n: number }).n).toBe(sessionsBefore - 1);
    const after = await http(app, "/admin", { cookie: mine });
    expect(visibleText(after.body)).toContain("Admin Login");
    const post = await http(app, "/admin", { cookie: mine, form: { intent: "fee", fee: "77" } });
    expect(post.status).toBe(303);
    expect(fee()).not.toBe("77.00");
  });

  it("ignores a forged cookie", async () => {
    const page = await http(app, "/admin", { cookie: "admin_session=forged.value" });
    expect(visibleText(page.body)).toContain("Admin Login");
  });

  it("the create-admin script makes an admin who can sign in", async () => {
    const admin = { email: `second-${Date.now()}@example.test`, password: "another-long-password" };
    const result = await runScript(app, "create-admin.ts", [admin.email, admin.password]);
    expect(result.code, result.output).toBe(0);
    expect(await adminCookie(app.url, admin)).toMatch(/^admin_session=/);
    const bad = await runScript(app, "create-admin.ts", ["not-an-email", "x"]);
    expect(bad.code).toBe(2);
  });
});

describe("anonymous requests get the login screen or a redirect to it, never data", () => {
  const pages = [
    "/admin/inquiries",
    "/admin/portfolio",
    "/admin/export/domains.csv",
    "/admin/export/inquiries.csv",
    "/admin/inquiries?status=refunded",
  ];
  for (const path of pages) {
    it(`GET ${path}`, async () => {
      const response = await http(app, path);
      expect(response.status).toBe(303);
      expect(response.location).toBe("/admin");
      expect(response.body).not.toContain("velora");
    });
  }

  it("the panel's data request answers with the login state only", async () => {
    const response = await http(app, "/admin.data");
    expect(response.body).not.toContain("velora");
    expect(response.body).not.toContain("totalDomains");
  });

  const posts: Array<[string, Record<string, string>]> = [
    ["/admin", { intent: "fee", fee: "55" }],
    ["/admin", { intent: "price", id: "1", price: "1" }],
    ["/admin", { intent: "delete", id: "1" }],
    ["/admin", { intent: "add", domainName: "anon-added.com", askingPrice: "1", trackingId: "x", ownerEmail: "" }],
    ["/admin", { intent: "logout" }],
    ["/admin", { intent: "bogus" }],
    ["/admin/inquiries", { intent: "answer", id: "1" }],
    ["/admin/inquiries", { intent: "refund", id: "1" }],
  ];
  for (const [path, form] of posts) {
    it(`POST ${path} intent=${form.intent}`, async () => {
      const response = await http(app, path, { form });
      expect(response.status).toBe(303);
      expect(response.location).toBe("/admin");
    });
  }

  it("POST /admin/portfolio (import)", async () => {
    const body = new FormData();
    body.set("file", new Blob(["anon-import.com,1,x,\n"], { type: "text/csv" }), "p.csv");
    const response = await http(app, "/admin/portfolio", { body });
    expect(response.status).toBe(303);
    expect(domainRow("anon-import.com")).toBeUndefined();
  });

  it("nothing those posts asked for happened", () => {
    expect(fee()).not.toBe("55.00");
    expect(domainRow("velora.com")!.deleted_at).toBeNull();
    expect(domainRow("velora.com")!.asking_price_cents).not.toBe(100);
    expect(domainRow("anon-added.com")).toBeUndefined();
  });
});

describe("panel actions over HTTP (no JavaScript)", () => {
  it("computes the stat cards in SQL", async () => {
    const { n, value } = app
      .db()
      .prepare("SELECT count(*) AS n, sum(asking_price_cents) AS value FROM domains WHERE deleted_at IS NULL")
      .get() as { n: number; value: number };
    const text = visibleText((await http(app, "/admin", { cookie })).body);
    expect(text).toContain(`Total Domains ${n}`);
    expect(text).toContain(`Total Value $${(value / 100).toLocaleString("en-US")}`);
    expect(text).toMatch(/Inquiry Fee \$\d/);
  });

  it("updates the fee, refuses a card-impossible fee, and turns a non-numeric fee into 0", async () => {
    const ok = await http(app, "/admin", { cookie, form: { intent: "fee", fee: "24.5" } });
    expect(ok.status).toBe(303);
    expect(ok.location).toBe("/admin?notice=fee-updated");
    expect(fee()).toBe("24.50");
    const shown = visibleText((await http(app, ok.location!, { cookie })).body);
    expect(shown).toContain("Inquiry fee updated successfully!");
    expect(shown).toContain("Inquiry Fee $24.50");

    const tiny = await http(app, "/admin", { cookie, form: { intent: "fee", fee: "0.30" } });
    expect(tiny.status).toBe(400);
    expect(visibleText(tiny.body)).toContain("at least $0.50");
    expect(fee()).toBe("24.50");

    await http(app, "/admin", { cookie, form: { intent: "fee", fee: "19.99" } });
    expect(fee()).toBe("19.99");
  });

  it("refuses a fee that is not a plain decimal, keeping what was typed, instead of saving $0 or $15", async () => {
    await http(app, "/admin", { cookie, form: { intent: "fee", fee: "19.99" } });
    for (const typed of ["abc", "1e3", "0.001", "Infinity", "NaN", "0x10", "1,5"]) {
      const reply = await http(app, "/admin", { cookie, form: { intent: "fee", fee: typed } });
      expect(reply.status, typed).toBe(400);
      const shown = visibleText(reply.body);
      expect(shown, typed).toMatch(/plain amount in dollars|at most two decimals/);
      expect(shown).not.toContain("Inquiry fee updated successfully!");
      expect(reply.body).toContain(`value="${typed}"`);
      expect(fee(), typed).toBe("19.99");
    }
  });

  it("npm run set-fee uses the form's rules: no fee a card cannot be charged, no third decimal", async () => {
    await http(app, "/admin", { cookie, form: { intent: "fee", fee: "19.99" } });
    for (const [typed, message] of [
      ["0.10", "at least $0.50"],
      ["0.001", "at most two decimals"],
      ["1e3", "plain amount"],
      ["20000", "more than $10,000"],
    ] as const) {
      const result = await runScript(app, "set-fee.ts", [typed]);
      expect(result.code, typed).toBe(2);
      expect(result.output).toContain(message);
      expect(fee()).toBe("19.99");
    }
    const ok = await runScript(app, "set-fee.ts", ["0.50"]);
    expect(ok.code).toBe(0);
    expect(fee()).toBe("0.50");
    await http(app, "/admin", { cookie, form: { intent: "fee", fee: "19.99" } });
  });

  it("asks to confirm a fee of $0 (a second submit) and says on the page that an empty field means 0", async () => {
    await http(app, "/admin", { cookie, form: { intent: "fee", fee: "19.99" } });
    expect(visibleText((await http(app, "/admin", { cookie })).body)).toContain("An empty field also means 0.");
    for (const typed of ["0", ""]) {
      const ask = await http(app, "/admin", { cookie, form: { intent: "fee", fee: typed } });
      expect(ask.status).toBe(200);
      expect(visibleText(ask.body)).toContain("Make inquiries free?");
      expect(ask.body).toContain('name="confirmFree" value="1"');
      expect(fee()).toBe("19.99");
    }
    const confirmed = await http(app, "/admin", { cookie, form: { intent: "fee", fee: "0", confirmFree: "1" } });
    expect(confirmed.status).toBe(303);
    expect(fee()).toBe("0.00");
    await http(app, "/admin", { cookie, form: { intent: "fee", fee: "19.99" } });
    expect(fee()).toBe("19.99");
  });

  it("edits a price, refusing an invalid one with the spec's message", async () => {
    const name = uniqueDomainName("price");
    const id = insertDomain(app.db(), { name, priceCents: 100_000 });
    const editPage = await http(app, `/admin?edit=${id}`, { cookie });
    expect(editPage.body).toContain(`aria-label="New price for ${name}"`);
    const bad = await http(app, `/admin?edit=${id}`, {
      cookie,
      form: { intent: "price", id: String(id), price: "-5", returnTo: "/admin" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatch(/role="alert"[^>]*>Please enter a valid price/);
    const good = await http(app, `/admin?edit=${id}`, {
      cookie,
      form: { intent: "price", id: String(id), price: "2500.75", returnTo: `/admin?q=price&edit=${id}` },
    });
    expect(good.status).toBe(303);
    expect(good.location).toBe("/admin?q=price&notice=price-updated");
    expect(domainRow(name)!.asking_price_cents).toBe(250_075);
    const offsite = await http(app, "/admin", {
      cookie,
      form: { intent: "price", id: String(id), price: "1", returnTo: "//evil.example/admin" },
    });
    expect(offsite.location).toBe("/admin?notice=price-updated");
  });

  it("adds a domain, and explains a duplicate or an invalid name keeping what was typed", async () => {
    const name = uniqueDomainName("added");
    const form = {
      intent: "add",
      domainName: ` ${name.toUpperCase()} `,
      askingPrice: "1234.5",
      trackingId: "seller1",
      ownerEmail: "owner@example.test",
    };
    const ok = await http(app, "/admin?add=1", { cookie, form });
    expect(ok.status).toBe(303);
    expect(ok.location).toBe("/admin?notice=domain-added");
    expect(domainRow(name)).toMatchObject({
      asking_price_cents: 123_450,
      tracking_id: "seller1",
      owner_email: "owner@example.test",
    });

    const duplicate = await http(app, "/admin?add=1", { cookie, form });
    expect(duplicate.status).toBe(409);
    expect(visibleText(duplicate.body)).toContain(`Error adding domain: ${name} is already in your portfolio.`);

    const invalid = await http(app, "/admin?add=1", {
      cookie,
      form: { ...form, domainName: "not a domain", trackingId: "kept-tracking" },
    });
    expect(invalid.status).toBe(400);
    expect(visibleText(invalid.body)).toContain('Error adding domain: "not a domain" is not a valid domain name');
    expect(invalid.body).toContain('value="kept-tracking"');
    expect(invalid.body).toContain('value="owner@example.test"');
    expect(invalid.body).toMatch(/<dialog[^>]*open=""/);

    const empty = await http(app, "/admin", {
      cookie,
      form: { intent: "add", domainName: uniqueDomainName("e"), askingPrice: "", trackingId: "", ownerEmail: "" },
    });
    expect(empty.status).toBe(400);

    // Posted as typed (a script, or a browser that does not convert it): stored as a browser sends it.
    const idn = uniqueDomainName("idnowner");
    const unicodeOwner = await http(app, "/admin?add=1", {
      cookie,
      form: { ...form, domainName: idn, ownerEmail: "owner@münchen.de" },
    });
    expect(unicodeOwner.status).toBe(303);
    expect(domainRow(idn)).toMatchObject({ owner_email: "owner@xn--mnchen-3ya.de" });
  });

  it("opens the Add Domain modal by URL", async () => {
    const page = await http(app, "/admin?add=1", { cookie });
    expect(page.body).toMatch(/<dialog[^>]*open=""/);
    for (const label of ["Domain name", "Asking price", "Tracking ID (username)", "Owner email"])
      expect(page.body).toContain(`>${label}</label>`);
  });

  it("deletes softly: the domain leaves the list, its paid inquiries stay, and the name can be listed again", async () => {
    const name = uniqueDomainName("gone");
    const id = insertDomain(app.db(), { name, priceCents: 5000 });
    const inquiryId = insertPaidInquiry(app.db(), { domainId: id, domainName: name });
    const confirmPage = visibleText((await http(app, `/admin?delete=${id}`, { cookie })).body);
    expect(confirmPage).toContain("Are you sure you want to delete this domain?");
    const response = await http(app, `/admin?delete=${id}`, {
      cookie,
      form: { intent: "delete", id: String(id), returnTo: `/admin?delete=${id}` },
    });
    expect(response.status).toBe(303);
    expect(response.location).toBe("/admin?notice=domain-deleted");
    expect(domainRow(name)!.deleted_at).not.toBeNull();
    expect(app.db().prepare("SELECT domain_name FROM inquiries WHERE id = ?").get(inquiryId)).toEqual({
      domain_name: name,
    });
    expect((await http(app, `/domain/${name}`)).status).toBe(404);
    expect(visibleText((await http(app, "/admin/inquiries", { cookie })).body)).toContain(name);
    const again = await http(app, "/admin", {
      cookie,
      form: { intent: "add", domainName: name, askingPrice: "10", trackingId: "t", ownerEmail: "" },
    });
    expect(again.status).toBe(303);
  });

  it("answers an unknown intent with 400", async () => {
    expect((await http(app, "/admin", { cookie, form: { intent: "drop-tables" } })).status).toBe(400);
    expect((await http(app, "/admin/inquiries", { cookie, form: { intent: "drop-tables", id: "1" } })).status).toBe(
      400,
    );
  });

  it("refuses a cross-site form post to every admin action", async () => {
    const evil = { Origin: "http://evil.example" };
    const response = await http(app, "/admin", { cookie, form: { intent: "fee", fee: "66" }, headers: evil });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(fee()).not.toBe("66.00");
    const name = uniqueDomainName("csrf");
    const body = new FormData();
    body.set("file", new Blob([`${name},1,x,\n`], { type: "text/csv" }), "p.csv");
    expect((await http(app, "/admin/portfolio", { cookie, body, headers: evil })).status).toBeGreaterThanOrEqual(400);
    expect(domainRow(name)).toBeUndefined();
    expect(
      (await http(app, "/admin/inquiries", { cookie, form: { intent: "answer", id: "1" }, headers: evil })).status,
    ).toBeGreaterThanOrEqual(400);
  });

  it("finds names containing the search term, whether few or many match", async () => {
    const tag = `needle${Date.now().toString(36)}`;
    insertDomain(app.db(), { name: `buy-${tag}-now.com`, priceCents: 100 });
    const few = visibleText((await http(app, `/admin?q=${tag.toUpperCase()}`, { cookie })).body);
    expect(few).toContain(`1 domain matching "${tag.toUpperCase()}"`);
    expect(few).toContain(`buy-${tag}-now.com`);
    const many = `many${Date.now().toString(36)}`;
    const at = "2031-01-01T00:00:00.000Z";
    insertRows(
      app.db(),
      "domains",
      Array.from({ length: 6000 }, (_, i) => ({
        domain_name: `${many}-${i}.com`,
        asking_price_cents: i,
        tracking_id: "t",
        owner_email: "",
        created_at: at,
        updated_at: at,
      })),
    );
    const manyPage = visibleText((await http(app, `/admin?q=${many}&sort=price-desc&page=2`, { cookie })).body);
    expect(manyPage).toContain(`6,000 domains matching "${many}"`);
    expect(manyPage).toContain("Page 2 of 120");
    expect(manyPage).toContain(`${many}-5949.com`);
    expect(manyPage).not.toContain(`${many}-5950.com`);
    const underscore = visibleText((await http(app, "/admin?q=_", { cookie })).body);
    expect(underscore).toContain("No domains match your search.");
  });
});

describe("admin search: a tracking ID or owner email finds the domain too", () => {
  it("matches the tracking ID and the owner email (contains, any case), whether few or many match", async () => {
    const tag = `tr${Date.now().toString(36)}`;
    const byTracking = uniqueDomainName("bytracking");
    const byEmail = uniqueDomainName("byemail");
    insertDomain(app.db(), { name: byTracking, priceCents: 100, trackingId: `Seller-${tag}-7` });
    insertDomain(app.db(), { name: byEmail, priceCents: 100, ownerEmail: `jane.${tag}@owners.example` });
    const tracking = visibleText((await http(app, `/admin?q=seller-${tag}`, { cookie })).body);
    expect(tracking).toContain(`1 domain matching "seller-${tag}"`);
    expect(tracking).toContain(byTracking);
    const email = visibleText(
      (await http(app, `/admin?q=${encodeURIComponent(`JANE.${tag}@owners`)}`, { cookie })).body,
    );
    expect(email).toContain(`1 domain matching "JANE.${tag}@owners"`);
    expect(email).toContain(byEmail);
    const both = visibleText((await http(app, `/admin?q=${tag}`, { cookie })).body);
    expect(both).toContain(`2 domains matching "${tag}"`);
    // An owner email on an internationalized domain is stored in its ASCII form and found by either form.
    const idn = uniqueDomainName("idnowner");
    insertDomain(app.db(), { name: idn, priceCents: 100, ownerEmail: `${tag}@xn--mnchen-3ya.de` });
    expect(
      visibleText((await http(app, `/admin?q=${encodeURIComponent(`${tag}@münchen.de`)}`, { cookie })).body),
    ).toContain(idn);
    // Many matches (beyond the id list): the sort index is walked with the same three conditions.
    const many = `mt${Date.now().toString(36)}`;
    const at = "2031-01-01T00:00:00.000Z";
    insertRows(
      app.db(),
      "domains",
      Array.from({ length: 6000 }, (_, i) => ({
        domain_name: `w${i}-${many.slice(2)}q.com`,
        asking_price_cents: i,
        tracking_id: i % 2 ? `${many}-id` : "t",
        owner_email: i % 2 ? "" : `o@${many}.example`,
        created_at: at,
        updated_at: at,
      })),
    );
    const manyPage = visibleText((await http(app, `/admin?q=${many}&sort=price-desc&page=2`, { cookie })).body);
    expect(manyPage).toContain(`6,000 domains matching "${many}"`);
    expect(manyPage).toContain("Page 2 of 120");
    expect(manyPage).toContain(`w5949-${many.slice(2)}q.com`);
    expect(manyPage).not.toContain(`w5950-${many.slice(2)}q.com`);
  });
});

describe("domains table: pages of 50, search and sort as GET parameters", () => {
  it("pages, searches and sorts", async () => {
    const tag = `pg${Date.now().toString(36)}`;
    for (let i = 0; i < 120; i++)
      insertDomain(app.db(), {
        name: `${tag}-${String(i).padStart(3, "0")}.com`,
        priceCents: 10_000 + ((i * 37) % 120) * 100,
        createdAt: new Date(Date.UTC(2030, 0, 1, 0, i)).toISOString(),
      });
    const first = visibleText((await http(app, `/admin?q=${tag}`, { cookie })).body);
    expect(first).toContain(`120 domains matching "${tag}"`);
    expect(first).toContain("Page 1 of 3");
    expect(first.match(new RegExp(`${tag}-\\d{3}\\.com`, "g"))!.length).toBe(50);
    expect(first.indexOf(`${tag}-119.com`)).toBeGreaterThan(-1);
    // Page-number links, not only Previous/Next; the current page is marked for assistive technology.
    const firstHtml = (await http(app, `/admin?q=${tag}&page=2`, { cookie })).body;
    const pageLink = (label: string) => new RegExp(`<a[^>]*aria-label="${label}"[^>]*>`).exec(firstHtml)?.[0] ?? "";
    expect(pageLink("Page 1")).toContain(`href="/admin?q=${tag}"`);
    expect(pageLink("Page 2")).toContain('aria-current="page"');
    expect(pageLink("Page 3")).toContain(`href="/admin?q=${tag}&amp;page=3"`);
    expect(pageLink("Page 3")).not.toContain("aria-current");
    const last = visibleText((await http(app, `/admin?q=${tag}&page=3`, { cookie })).body);
    expect(last.match(new RegExp(`${tag}-\\d{3}\\.com`, "g"))!.length).toBe(20);
    expect(last).toContain(`${tag}-000.com`);
    const cheapest = visibleText((await http(app, `/admin?q=${tag}&sort=price-asc`, { cookie })).body);
    expect(cheapest.match(new RegExp(`${tag}-\\d{3}\\.com`))![0]).toBe(`${tag}-000.com`);
    const empty = visibleText((await http(app, `/admin?q=zzz-nothing-${tag}`, { cookie })).body);
    expect(empty).toContain("No domains match your search.");
  });
});
