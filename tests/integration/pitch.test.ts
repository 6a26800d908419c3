import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { useAdminAppServer } from "../support/vitest-server";
import { letterTag } from "../support/data";
import { requestWithHost } from "../support/raw-http";
import { http, uploadPortfolioCsv, visibleText } from "./admin-helpers";

// Issue 24 item 3: a pitch per name, given by the admin, shown to buyers and searched.
const { app, cookie } = useAdminAppServer();

const tag = letterTag("pt", 4);
const pitchOf = (name: string) =>
  (
    app.db().prepare("SELECT pitch FROM domains WHERE domain_name = ? AND deleted_at IS NULL").get(name) as {
      pitch: string | null;
    }
  ).pitch;
const idOf = (name: string) =>
  (app.db().prepare("SELECT id FROM domains WHERE domain_name = ? AND deleted_at IS NULL").get(name) as { id: number })
    .id;

describe("pitch", () => {
  const pitch = `The "${tag}" name for <coffee> & tea lovers \u2615`;

  it("is given in the Add Domain dialog and shown on the domain page and lander, as its description", async () => {
    const name = `${tag}brew.com`;
    const added = await http(app, "/admin?add=1", {
      cookie: cookie(),
      form: {
        intent: "add",
        domainName: name,
        askingPrice: "5000",
        trackingId: "t",
        ownerEmail: "",
        pitch: `  ${pitch}\n`,
      },
    });
    expect(added.status).toBe(303);
    expect(pitchOf(name)).toBe(pitch);

    const page = await http(app, `/domain/${tag}brew`);
    const escaped = `The &quot;${tag}&quot; name for &lt;coffee&gt; &amp; tea lovers \u2615`;
    expect(page.body).toContain(`<p class="mt-4 break-words text-lg text-slate-200">${escaped}</p>`);
    expect(page.body).toContain(`<meta name="description" content="${escaped}"/>`);
    expect(page.body).toContain(`<meta property="og:description" content="${escaped}"/>`);
    const jsonLd = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/.exec(page.body)![1]!);
    expect(jsonLd.description).toBe(pitch);
    expect(page.body).not.toContain("<coffee>");

    const lander = await requestWithHost(app.url, "/", name);
    expect(lander.body).toContain(escaped);
  });

  it("is searched by the search box, and set or cleared in the edit form", async () => {
    const found = await http(app, `/?q=${encodeURIComponent(`${tag}" name for <COFFEE>`)}`);
    expect([...found.body.matchAll(/href="\/domain\/([^"]+)"/g)].map((m) => m[1])).toEqual([`${tag}brew`]);

    const id = idOf(`${tag}brew.com`);
    const tooLong = await http(app, `/admin/domains/${id}`, {
      cookie: cookie(),
      form: { intent: "listing", categories: "", pitch: "x".repeat(301) },
    });
    expect(tooLong.status).toBe(400);
    expect(visibleText(tooLong.body)).toContain("The pitch is longer than 300 characters");
    expect(pitchOf(`${tag}brew.com`)).toBe(pitch);
    await http(app, `/admin/domains/${id}`, {
      cookie: cookie(),
      form: { intent: "listing", categories: "", pitch: "Short & sweet" },
    });
    expect(pitchOf(`${tag}brew.com`)).toBe("Short & sweet");
    const edit = await http(app, `/admin/domains/${id}`, { cookie: cookie() });
    expect(edit.body).toMatch(/<textarea[^>]*id="pitch"[^>]*>Short &amp; sweet<\/textarea>/);
    await http(app, `/admin/domains/${id}`, {
      cookie: cookie(),
      form: { intent: "listing", categories: "", pitch: "   " },
    });
    expect(pitchOf(`${tag}brew.com`)).toBeNull();
    expect((await http(app, `/domain/${tag}brew`)).body).toContain(
      `<meta name="description" content="${tag}brew.com is for sale.`,
    );
  });

  it("round-trips through the CSV's pitch column", async () => {
    const imported = await uploadPortfolioCsv(
      app,
      cookie(),
      [
        "domain,price,tracking_id,owner_email,pitch",
        `${tag}csv1.com,100,t1,,"Quoted ""pitch"", with a comma"`,
        `${tag}csv2.com,200,t2,,'=1+2 looks like a formula`,
      ].join("\n"),
    );
    expect(imported.location).toBe("/admin/portfolio?added=2&updated=0");
    expect(pitchOf(`${tag}csv1.com`)).toBe('Quoted "pitch", with a comma');
    expect(pitchOf(`${tag}csv2.com`)).toBe("=1+2 looks like a formula");
    const exported = (await http(app, "/admin/export/domains.csv", { cookie: cookie() })).body;
    const rows = (parse(exported, { bom: true, columns: true }) as Array<Record<string, string>>).filter((row) =>
      row.domain!.startsWith(`${tag}csv`),
    );
    expect(rows.map((row) => row.pitch)).toEqual(['Quoted "pitch", with a comma', "'=1+2 looks like a formula"]);
    const header = exported.replace(/^\uFEFF/, "").split("\n")[0]!;
    const lines = exported.split("\n").filter((line) => line.startsWith(`"${tag}csv`));
    expect((await uploadPortfolioCsv(app, cookie(), [header, ...lines].join("\n"))).location).toBe(
      "/admin/portfolio?added=0&updated=2",
    );
    expect(pitchOf(`${tag}csv2.com`)).toBe("=1+2 looks like a formula");
    // A file without the column keeps the pitch.
    await uploadPortfolioCsv(app, cookie(), `${tag}csv1.com,150,t1,`);
    expect(pitchOf(`${tag}csv1.com`)).toBe('Quoted "pitch", with a comma');
  });
});
