import { parse } from "csv-parse/sync";
import { beforeAll, describe, expect, it } from "vitest";
import { adminCookie, insertPaidInquiry, payInquiry, TEST_ADMIN } from "../support/admin";
import { useAppServer } from "../support/vitest-server";
import { insertDomain, insertRows, uniqueDomainName } from "../support/data";
import { http, visibleText } from "./admin-helpers";

const app = useAppServer({ env: { ADMIN_EMAIL: TEST_ADMIN.email, ADMIN_PASSWORD: TEST_ADMIN.password } });
let cookie: string;
beforeAll(async () => {
  cookie = await adminCookie(app.url);
});

const createdAt = (domainId: number) =>
  (app.db().prepare("SELECT created_at FROM domains WHERE id = ?").get(domainId) as { created_at: string }).created_at;

function csvUpload(text: string | Uint8Array, name = "portfolio.csv") {
  const body = new FormData();
  body.set("file", new Blob([text as BlobPart], { type: "text/csv" }), name);
  return http(app, "/admin/portfolio", { cookie, body });
}

describe("inquiry inbox", () => {
  it("lists paid inquiries newest first, filters by domain and status, and marks one answered once", async () => {
    const name = uniqueDomainName("inbox");
    const id = insertDomain(app.db(), { name, priceCents: 100_000 });
    const older = insertPaidInquiry(app.db(), {
      domainId: id,
      domainName: name,
      name: "Older Buyer",
      paidAt: "2030-01-01T10:00:00.000Z",
    });
    insertPaidInquiry(app.db(), {
      domainId: id,
      domainName: name,
      name: "Newer Buyer",
      message: "Second message",
      paidAt: "2030-01-02T10:00:00.000Z",
    });
    app
      .db()
      .prepare(
        "INSERT INTO inquiries (public_id, domain_id, domain_name, name, email, message, amount_cents, provider, created_at) VALUES ('pending-1', ?, ?, 'Unpaid Person', 'u@example.test', 'm', 1999, 'test', ?)",
      )
      .run(id, name, new Date().toISOString());

    const page = visibleText((await http(app, `/admin/inquiries?domain=${name}`, { cookie })).body);
    expect(page).toContain("2 inquiries: 2 paid, 0 credited, 0 refunded");
    expect(page.indexOf("Newer Buyer")).toBeLessThan(page.indexOf("Older Buyer"));
    expect(page).toContain("ada@example.test");
    expect(page).toContain("+1 555 0100");
    expect(page).toContain("$5,000");
    expect(page).toContain("Second message");
    expect(page).not.toContain("Unpaid Person");

    const answered = await http(app, "/admin/inquiries", {
      cookie,
      form: { intent: "answer", id: String(older), returnTo: `/admin/inquiries?domain=${name}` },
    });
    expect(answered.status).toBe(303);
    expect(answered.location).toBe(`/admin/inquiries?domain=${name}&notice=inquiry-answered`);
    const firstAnswer = (
      app.db().prepare("SELECT answered_at FROM inquiries WHERE id = ?").get(older) as { answered_at: string }
    ).answered_at;
    expect(firstAnswer).toBeTruthy();
    await http(app, "/admin/inquiries", { cookie, form: { intent: "answer", id: String(older) } });
    expect(
      (app.db().prepare("SELECT answered_at FROM inquiries WHERE id = ?").get(older) as { answered_at: string })
        .answered_at,
    ).toBe(firstAnswer);

    const answeredOnly = visibleText(
      (await http(app, `/admin/inquiries?domain=${name}&status=answered`, { cookie })).body,
    );
    expect(answeredOnly).toContain("Older Buyer");
    expect(answeredOnly).not.toContain("Newer Buyer");
    const awaiting = visibleText((await http(app, `/admin/inquiries?domain=${name}&status=awaiting`, { cookie })).body);
    expect(awaiting).toContain("Newer Buyer");
    expect(awaiting).not.toContain("Older Buyer");
  });
});

describe("inbox domain filter", () => {
  it("accepts the short name and a www. name as well as the stored one", async () => {
    const name = uniqueDomainName("filter");
    const domainId = insertDomain(app.db(), { name, priceCents: 100 });
    insertPaidInquiry(app.db(), { domainId, domainName: name, name: "Filter Buyer" });
    for (const typed of [name, name.replace(/\.com$/, ""), `www.${name}`, name.toUpperCase()]) {
      const text = visibleText(
        (await http(app, `/admin/inquiries?domain=${encodeURIComponent(typed)}`, { cookie })).body,
      );
      expect(text, typed).toContain("1 inquiry: 1 paid, 0 credited, 0 refunded");
      expect(text).toContain("Filter Buyer");
    }
  });
});

describe("portfolio CSV", () => {
  it("imports a good file in one go: adds new domains and updates listed ones", async () => {
    const fresh = uniqueDomainName("csvnew");
    const listed = uniqueDomainName("csvold");
    insertDomain(app.db(), { name: listed, priceCents: 100 });
    const response = await csvUpload(
      `domain,price,tracking id,owner email\n${fresh},1500,seller,owner@example.test\n"${listed}","2,000.50",seller2,\n`,
    );
    expect(response.status).toBe(303);
    expect(response.location).toBe("/admin/portfolio?added=1&updated=1");
    expect(visibleText((await http(app, response.location!, { cookie })).body)).toContain(
      "Import complete: 1 added, 1 updated.",
    );
    const rows = app
      .db()
      .prepare(
        "SELECT domain_name, asking_price_cents, tracking_id, owner_email FROM domains WHERE domain_name IN (?, ?) AND deleted_at IS NULL ORDER BY domain_name",
      )
      .all(fresh, listed);
    expect(rows).toEqual(
      expect.arrayContaining([
        { domain_name: fresh, asking_price_cents: 150_000, tracking_id: "seller", owner_email: "owner@example.test" },
        // An empty owner-email cell keeps the listed domain's owner email.
        { domain_name: listed, asking_price_cents: 200_050, tracking_id: "seller2", owner_email: "owner@example.test" },
      ]),
    );
  });

  it("imports nothing from a file with a bad row and lists every problem by line", async () => {
    const good = uniqueDomainName("csvgood");
    const response = await csvUpload(
      `${good},100,t,\nnot a domain,100,t,\n${good},5,t,\nok-${good},-3,t,\nfine-${good},10,,bad-email\n`,
    );
    expect(response.status).toBe(400);
    const text = visibleText(response.body);
    expect(text).toContain("Nothing was imported from portfolio.csv");
    expect(text).toMatch(/2 "not a domain" is not a valid domain name/);
    expect(text).toContain(`3 ${good} is already on line 1 of this file`);
    expect(text).toContain("4 Please enter a valid price");
    expect(text).toMatch(/5 Tracking ID is required; Owner email must be a valid email address/);
    expect(app.db().prepare("SELECT count(*) AS n FROM domains WHERE domain_name = ?").get(good)).toEqual({ n: 0 });
  });

  it("streams the portfolio and the inquiries as CSV, and an export imports back unchanged", async () => {
    const exported = await http(app, "/admin/export/domains.csv", { cookie });
    expect(exported.status).toBe(200);
    expect(exported.headers.get("content-type")).toContain("text/csv");
    expect(exported.headers.get("content-disposition")).toMatch(
      /attachment; filename="portfolio-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    const records = parse(exported.body, { columns: true }) as Array<Record<string, string>>;
    const { n } = app.db().prepare("SELECT count(*) AS n FROM domains WHERE deleted_at IS NULL").get() as { n: number };
    expect(records.length).toBe(n);
    expect(records.find((r) => r.domain === "velora.com")).toMatchObject({ price: "24500.00", tracking_id: "velora" });

    const reimport = await csvUpload(exported.body, "export.csv");
    expect(reimport.location).toBe(`/admin/portfolio?added=0&updated=${n}`);

    const name = uniqueDomainName("csvinq");
    const domainId = insertDomain(app.db(), { name, priceCents: 100 });
    insertPaidInquiry(app.db(), {
      domainId,
      domainName: name,
      name: '=HYPERLINK("http://evil")',
      message: "line one\nline, two",
    });
    const inquiries = await http(app, "/admin/export/inquiries.csv", { cookie });
    const inquiryRecords = parse(inquiries.body, { columns: true }) as Array<Record<string, string>>;
    const mine = inquiryRecords.find((r) => r.domain === name)!;
    expect(mine).toMatchObject({ message: "line one\nline, two", amount: "19.99", status: "paid" });
    expect(mine.name!.startsWith("'=")).toBe(true);
  });

  it("round-trips cells that start like a formula, keeps or clears owner emails as asked, and writes a BOM", async () => {
    const name = uniqueDomainName("csvround");
    const id = insertDomain(app.db(), { name, priceCents: 12_300, trackingId: "=1+2", ownerEmail: "-x@example.com" });
    const other = uniqueDomainName("csvquote");
    const otherId = insertDomain(app.db(), {
      name: other,
      priceCents: 100,
      trackingId: "'+already quoted",
      ownerEmail: "keep@example.com",
    });
    const row = (domainId: number) =>
      app.db().prepare("SELECT tracking_id, owner_email, asking_price_cents FROM domains WHERE id = ?").get(domainId);

    const raw = await fetch(new URL("/admin/export/domains.csv", app.url), { headers: { Cookie: cookie } });
    const bytes = new Uint8Array(await raw.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes);
    // Guarded for spreadsheets...
    expect(text).toContain(`"${name}",123.00,"'=1+2","'-x@example.com",`);
    const reimport = await csvUpload(bytes, "export.csv");
    expect(reimport.status).toBe(303);
    // ...and given back unchanged by the import.
    expect(row(id)).toEqual({ tracking_id: "=1+2", owner_email: "-x@example.com", asking_price_cents: 12_300 });
    expect(row(otherId)).toEqual({
      tracking_id: "'+already quoted",
      owner_email: "keep@example.com",
      asking_price_cents: 100,
    });

    // An empty owner-email cell keeps it; "none" clears it.
    expect((await csvUpload(`${other},2,t,\n`)).status).toBe(303);
    expect(row(otherId)).toMatchObject({ owner_email: "keep@example.com" });
    expect((await csvUpload(`${other},2,t,none\n`)).status).toBe(303);
    expect(row(otherId)).toMatchObject({ owner_email: "" });
    expect(visibleText((await http(app, "/admin/portfolio", { cookie })).body)).toContain("write none to remove it");
  });

  it("quotes every text cell and guards a formula after ; and , too, and still imports back unchanged", async () => {
    const name = uniqueDomainName("csvsemi");
    const id = insertDomain(app.db(), { name, priceCents: 12_300, trackingId: "note;=1+1", ownerEmail: "" });
    app.db().prepare("UPDATE domains SET pitch = ? WHERE id = ?").run("Short,@SUM(A1) and 'kept';''-x", id);
    insertPaidInquiry(app.db(), { domainId: id, domainName: name, name: "Semi Colon", message: "hi;+1,-2" });
    app.db().prepare("UPDATE inquiries SET offer = ? WHERE domain_id = ?").run("note;=1+1", id);
    // What a spreadsheet whose separator is ; makes of a line: no piece may start like a formula.
    const formulaPieces = (line: string) =>
      line
        .split(";")
        .map((piece) => piece.replace(/^"/, ""))
        .filter((piece) => /^[=+\-@\t\r]/.test(piece));

    const portfolio = (await http(app, "/admin/export/domains.csv", { cookie })).body;
    const header = portfolio.replace(/^\uFEFF/, "").split("\n")[0]!;
    expect(header).toBe(
      '"domain","price","tracking_id","owner_email","paid_inquiries","created_at","categories","pitch","buy_now_price"',
    );
    const line = portfolio.split("\n").find((row) => row.startsWith(`"${name}"`))!;
    expect(line).toBe(`"${name}",123.00,"note;'=1+1","",0,"${createdAt(id)}","","Short,'@SUM(A1) and 'kept';'''-x",""`);
    expect(formulaPieces(line)).toEqual([]);
    expect((await csvUpload(`${header}\n${line}\n`)).location).toBe("/admin/portfolio?added=0&updated=1");
    expect(app.db().prepare("SELECT tracking_id, pitch, asking_price_cents FROM domains WHERE id = ?").get(id)).toEqual(
      {
        tracking_id: "note;=1+1",
        pitch: "Short,@SUM(A1) and 'kept';''-x",
        asking_price_cents: 12_300,
      },
    );

    const inquiries = (await http(app, "/admin/export/inquiries.csv", { cookie })).body;
    const row = inquiries.split("\n").find((text) => text.includes(`"${name}"`))!;
    expect(row).toMatch(
      /^\d+,"[^"]+","[^"]+","Semi Colon","ada@example\.test","'\+1 555 0100","note;'=1\+1","hi;'\+1,'-2",19\.99,"paid","",""$/,
    );
    expect(formulaPieces(row)).toEqual([]);
  });

  it("says so when a file is not UTF-8 or separates columns with ;", async () => {
    const name = uniqueDomainName("csvenc");
    const latin1 = new Uint8Array([
      ...new TextEncoder().encode(`${name},100,Jos`),
      0xe9,
      ...new TextEncoder().encode(",\n"),
    ]);
    const notUtf8 = await csvUpload(latin1);
    expect(notUtf8.status).toBe(400);
    expect(visibleText(notUtf8.body)).toContain(
      'The file is not UTF-8 text (accented letters would be garbled). Save it as "CSV UTF-8"',
    );
    const semicolons = await csvUpload(`domain;price;tracking id;owner email\n${name};100;t;\n`);
    expect(semicolons.status).toBe(400);
    expect(visibleText(semicolons.body)).toContain("The file separates columns with ; instead of commas.");
    expect(app.db().prepare("SELECT count(*) AS n FROM domains WHERE domain_name = ?").get(name)).toEqual({ n: 0 });
    // Accents in a UTF-8 file arrive intact.
    expect((await csvUpload(`${name},100,José,\n`)).status).toBe(303);
    expect(app.db().prepare("SELECT tracking_id FROM domains WHERE domain_name = ?").get(name)).toEqual({
      tracking_id: "José",
    });
  });

  it("exports 30,000 domains as a stream", async () => {
    const tag = `bulk${Date.now().toString(36)}`;
    const at = "2020-01-01T00:00:00.000Z";
    insertRows(
      app.db(),
      "domains",
      Array.from({ length: 30_000 }, (_, i) => ({
        domain_name: `${tag}-${i}.com`,
        asking_price_cents: 100,
        tracking_id: "t",
        owner_email: "",
        created_at: at,
        updated_at: at,
      })),
    );
    const response = await http(app, "/admin/export/domains.csv", { cookie });
    expect(response.headers.get("content-length")).toBeNull();
    expect(response.body.split("\n").filter((line) => line.startsWith(`"${tag}-`)).length).toBe(30_000);
  });
});

describe("refunds", () => {
  const refundState = (id: number) =>
    app
      .db()
      .prepare(
        "SELECT i.status, i.refunded_at, t.status AS payment FROM inquiries i JOIN test_payments t ON t.id = i.payment_intent_id WHERE i.id = ?",
      )
      .get(id) as {
      status: string;
      refunded_at: string | null;
      payment: string;
    };

  it("refunds a paid inquiry through the payment provider once, even when clicked twice at the same time", async () => {
    const name = uniqueDomainName("refund");
    insertDomain(app.db(), { name, priceCents: 100_000 });
    const { inquiryId } = await payInquiry(app, name.replace(/\.com$/, ""));
    expect(refundState(inquiryId)).toMatchObject({ status: "paid", payment: "succeeded" });
    const listed = visibleText((await http(app, `/admin/inquiries?domain=${name}`, { cookie })).body);
    expect(listed).toContain("Refund $");

    const form = {
      intent: "refund",
      id: String(inquiryId),
      returnTo: `/admin/inquiries?domain=${name}`,
      confirmed: "1",
    };
    const [first, second] = await Promise.all([
      http(app, "/admin/inquiries", { cookie, form }),
      http(app, "/admin/inquiries", { cookie, form }),
    ]);
    const notices = [first.location, second.location].sort();
    expect(notices).toEqual([
      `/admin/inquiries?domain=${name}&notice=inquiry-already-refunded`,
      `/admin/inquiries?domain=${name}&notice=inquiry-refunded`,
    ]);
    const state = refundState(inquiryId);
    expect(state).toMatchObject({ status: "refunded", payment: "refunded" });
    expect(state.refunded_at).toBeTruthy();

    const third = await http(app, "/admin/inquiries", { cookie, form });
    expect(third.location).toContain("notice=inquiry-already-refunded");
    expect(refundState(inquiryId).refunded_at).toBe(state.refunded_at);
    const page = visibleText((await http(app, `/admin/inquiries?domain=${name}&status=refunded`, { cookie })).body);
    expect(page).toContain("Refunded");
    expect(page).not.toContain("Refund $");
  });

  it("explains a refund the provider cannot make and leaves the inquiry paid", async () => {
    const name = uniqueDomainName("norefund");
    const domainId = insertDomain(app.db(), { name, priceCents: 100 });
    const id = insertPaidInquiry(app.db(), { domainId, domainName: name, paymentId: `pi_missing_${Date.now()}` });
    const response = await http(app, "/admin/inquiries", {
      cookie,
      form: { intent: "refund", id: String(id), confirmed: "1" },
    });
    expect(response.status).toBe(502);
    expect(visibleText(response.body)).toContain("The refund could not be made");
    expect(app.db().prepare("SELECT status, last_error FROM inquiries WHERE id = ?").get(id)).toMatchObject({
      status: "paid",
      last_error: expect.stringContaining("could not be made"),
    });
    expect(
      (await http(app, "/admin/inquiries", { cookie, form: { intent: "refund", id: "999999", confirmed: "1" } }))
        .status,
    ).toBe(404);
  });

  it("asks before refunding: the Refund button opens a confirmation, and a post without it refunds nothing", async () => {
    const name = uniqueDomainName("askfirst");
    const domainId = insertDomain(app.db(), { name, priceCents: 100_000 });
    const { inquiryId } = await payInquiry(app, name.replace(/\.com$/, ""));
    const inbox = await http(app, `/admin/inquiries?domain=${name}`, { cookie });
    // The Refund control is a link to the question, not a form that refunds on one click.
    expect(inbox.body).toMatch(
      new RegExp(
        `<a [^>]*href="/admin/inquiries\\?domain=${name.replace(/\./g, "\\.")}&amp;refund=${inquiryId}"[^>]*>Refund `,
      ),
    );
    expect(inbox.body).not.toMatch(/<button[^>]*value="refund"/);

    const unconfirmed = await http(app, "/admin/inquiries", {
      cookie,
      form: { intent: "refund", id: String(inquiryId) },
    });
    expect(unconfirmed.status).toBe(400);
    expect(visibleText(unconfirmed.body)).toContain("Confirm the refund first");
    expect(refundState(inquiryId).status).toBe("paid");

    const question = await http(app, `/admin/inquiries?domain=${name}&refund=${inquiryId}`, { cookie });
    expect(visibleText(question.body)).toMatch(/Refund \$\d+(\.\d\d)? to Ada Buyer\? The fee goes back to their card/);
    expect(question.body).toContain('name="confirmed" value="1"');
    expect(refundState(inquiryId).status).toBe("paid");

    const counts = () =>
      app
        .db()
        .prepare(
          "SELECT inquiry_count AS count, (SELECT count(*) FROM inquiries WHERE domain_id = ? AND status = 'paid') AS paid FROM domains WHERE id = ?",
        )
        .get(domainId, domainId);
    expect(counts()).toEqual({ count: 1, paid: 1 });
    const done = await http(app, "/admin/inquiries", {
      cookie,
      form: { intent: "refund", id: String(inquiryId), confirmed: "1", returnTo: `/admin/inquiries?domain=${name}` },
    });
    expect(done.location).toBe(`/admin/inquiries?domain=${name}&notice=inquiry-refunded`);
    expect(refundState(inquiryId).status).toBe("refunded");
    // A refunded inquiry is no longer a paid one: the count stays equal to the paid rows.
    expect(counts()).toEqual({ count: 0, paid: 0 });
    const panel = visibleText((await http(app, `/admin?q=${name}`, { cookie })).body);
    expect(panel).toContain("0 paid");
  });

  it("shows a free inquiry (fee 0) with no refund button and no refund deadline", async () => {
    const name = uniqueDomainName("freeinq");
    const domainId = insertDomain(app.db(), { name, priceCents: 100_000 });
    const id = insertPaidInquiry(app.db(), { domainId, domainName: name, name: "Free Buyer", amountCents: 0 });
    app
      .db()
      .prepare("UPDATE inquiries SET reply_deadline_at = ? WHERE id = ?")
      .run(new Date(Date.now() + 86_400_000).toISOString(), id);
    const paid = insertPaidInquiry(app.db(), { domainId, domainName: name, name: "Paying Buyer", amountCents: 1999 });
    app
      .db()
      .prepare("UPDATE inquiries SET reply_deadline_at = ? WHERE id = ?")
      .run(new Date(Date.now() + 86_400_000).toISOString(), paid);
    const body = (await http(app, `/admin/inquiries?domain=${name}`, { cookie })).body;
    const text = visibleText(body);
    const free = text.slice(
      text.indexOf("Free Buyer"),
      text.indexOf("Paying Buyer") > text.indexOf("Free Buyer") ? text.indexOf("Paying Buyer") : undefined,
    );
    expect(free).toContain("Amount Free");
    // (The footer's "Refund policy" link is on every page.)
    expect(free.replace("Refund policy", "")).not.toContain("Refund");
    expect(free).not.toContain("refunded automatically");
    expect(text).toContain("Refund $19.99");
    expect(text).toContain("or the fee is refunded automatically");
    // Even asked for directly, a free inquiry shows no refund question.
    expect(
      visibleText((await http(app, `/admin/inquiries?domain=${name}&refund=${id}`, { cookie })).body),
    ).not.toContain("Refund $0");
  });
});
