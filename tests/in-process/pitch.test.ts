import { parse } from "csv-parse/sync";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../../app/server/db/database.server";
import { letterTag } from "../support/data";
import { createAdmin, type TestAdmin } from "../support/factories";
import { render } from "../support/in-process/document";
import { uploadPortfolioCsv as uploadCsv } from "../support/in-process/portfolio";
import { visibleText } from "../support/visible-text";

// Issue 24 item 3: a pitch per name, given by the admin, shown to buyers and searched.
let admin: TestAdmin;
beforeAll(async () => {
  admin = await createAdmin();
});

const tag = letterTag("pt", 4);
const live = (name: string) =>
  db
    .selectFrom("domains")
    .select(["id", "pitch"])
    .where("domain_name", "=", name)
    .where("deleted_at", "is", null)
    .executeTakeFirstOrThrow();
const pitchOf = async (name: string) => (await live(name)).pitch;
const asAdmin = (path: string, form?: Record<string, string>) => render(path, { cookie: admin.cookie, form });
const uploadPortfolioCsv = (text: string) => uploadCsv(admin.cookie, text);

describe("pitch", () => {
  const pitch = `The "${tag}" name for <coffee> & tea lovers \u2615`;

  it("is given in the Add Domain dialog and shown on the domain page and lander, as its description", async () => {
    const name = `${tag}brew.com`;
    const added = await asAdmin("/admin?add=1", {
      intent: "add",
      domainName: name,
      askingPrice: "5000",
      trackingId: "t",
      ownerEmail: "",
      pitch: `  ${pitch}\n`,
    });
    expect(added.status).toBe(303);
    expect(await pitchOf(name)).toBe(pitch);

    const page = await render(`/domain/${tag}brew`);
    const escaped = `The &quot;${tag}&quot; name for &lt;coffee&gt; &amp; tea lovers \u2615`;
    expect(page.body).toContain(`<p class="mt-4 break-words text-lg text-slate-200">${escaped}</p>`);
    expect(page.body).toContain(`<meta name="description" content="${escaped}"/>`);
    expect(page.body).toContain(`<meta property="og:description" content="${escaped}"/>`);
    const jsonLd = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/.exec(page.body)![1]!);
    expect(jsonLd.description).toBe(pitch);
    expect(page.body).not.toContain("<coffee>");

    const lander = await render("/", { headers: { Host: name } });
    expect(lander.body).toContain(escaped);
  });

  it("is searched by the search box, and set or cleared in the edit form", async () => {
    const found = await render(`/?q=${encodeURIComponent(`${tag}" name for <COFFEE>`)}`);
    expect([...found.body.matchAll(/href="\/domain\/([^"]+)"/g)].map((m) => m[1])).toEqual([`${tag}brew`]);

    const { id } = await live(`${tag}brew.com`);
    const tooLong = await asAdmin(`/admin/domains/${id}`, {
      intent: "listing",
      categories: "",
      pitch: "x".repeat(301),
    });
    expect(tooLong.status).toBe(400);
    expect(visibleText(tooLong.body)).toContain("The pitch is longer than 300 characters");
    expect(await pitchOf(`${tag}brew.com`)).toBe(pitch);
    await asAdmin(`/admin/domains/${id}`, { intent: "listing", categories: "", pitch: "Short & sweet" });
    expect(await pitchOf(`${tag}brew.com`)).toBe("Short & sweet");
    const edit = await asAdmin(`/admin/domains/${id}`);
    expect(edit.body).toMatch(/<textarea[^>]*id="pitch"[^>]*>Short &amp; sweet<\/textarea>/);
    await asAdmin(`/admin/domains/${id}`, { intent: "listing", categories: "", pitch: "   " });
    expect(await pitchOf(`${tag}brew.com`)).toBeNull();
    expect((await render(`/domain/${tag}brew`)).body).toContain(
      `<meta name="description" content="${tag}brew.com is for sale.`,
    );
  });

  it("round-trips through the CSV's pitch column", async () => {
    const imported = await uploadPortfolioCsv(
      [
        "domain,price,tracking_id,owner_email,pitch",
        `${tag}csv1.com,100,t1,,"Quoted ""pitch"", with a comma"`,
        `${tag}csv2.com,200,t2,,'=1+2 looks like a formula`,
      ].join("\n"),
    );
    expect(imported.location).toBe("/admin/portfolio?added=2&updated=0");
    expect(await pitchOf(`${tag}csv1.com`)).toBe('Quoted "pitch", with a comma');
    expect(await pitchOf(`${tag}csv2.com`)).toBe("=1+2 looks like a formula");
    const exported = (await asAdmin("/admin/export/domains.csv")).body;
    const rows = (parse(exported, { bom: true, columns: true }) as Array<Record<string, string>>).filter((row) =>
      row.domain!.startsWith(`${tag}csv`),
    );
    expect(rows.map((row) => row.pitch)).toEqual(['Quoted "pitch", with a comma', "'=1+2 looks like a formula"]);
    const header = exported.replace(/^\uFEFF/, "").split("\n")[0]!;
    const lines = exported.split("\n").filter((line) => line.startsWith(`"${tag}csv`));
    expect((await uploadPortfolioCsv([header, ...lines].join("\n"))).location).toBe(
      "/admin/portfolio?added=0&updated=2",
    );
    expect(await pitchOf(`${tag}csv2.com`)).toBe("=1+2 looks like a formula");
    // A file without the column keeps the pitch.
    await uploadPortfolioCsv(`${tag}csv1.com,150,t1,`);
    expect(await pitchOf(`${tag}csv1.com`)).toBe('Quoted "pitch", with a comma');
  });
});
