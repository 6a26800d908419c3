import { displayDomainName, domainPagePath } from "../../app/lib/domain-name";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeDataDir, startAppServer, type AppServer } from "../support/app-server";
import { insertDomain } from "../support/data";
import { request, setFeeCents } from "../support/http";
import { BOT_USER_AGENT } from "../support/raw-http";
import { visibleText } from "./admin-helpers";

// First renders of domain pages come from prepared shells (app/server/http/domain-shell.server.ts):
// each must be the page React Router renders for that domain, byte for byte but the CSP nonce. The
// full render is reached through express by writing the name's first dot as %2E.

let app: AppServer;
beforeAll(async () => {
  app = await startAppServer({ env: { PAGE_CACHE: "false" } });
});
afterAll(async () => {
  if (app) removeDataDir(app);
});

// A crawler's user agent makes express's streaming render wait for all of the page, as the direct path does.
const get = (path: string) => request(app, path, { headers: { "User-Agent": BOT_USER_AGENT } });

const withoutNonces = (html: string) => html.replace(/nonce="[^"]*"/g, 'nonce=""');
const fullRenderPath = (name: string) => `/domain/${name.replace(".", "%2E")}`;

async function expectSamePage(name: string, path = domainPagePath(name)) {
  const fromShell = await get(path);
  const rendered = await get(fullRenderPath(name));
  expect(fromShell.status, name).toBe(200);
  expect(rendered.status, name).toBe(200);
  expect(fromShell.headers.get("content-type")).toBe(rendered.headers.get("content-type"));
  expect(withoutNonces(fromShell.body), name).toBe(withoutNonces(rendered.body));
  return fromShell.body;
}

async function shellStats(): Promise<{ fromShell: number; rendered: number; contractBroken: number }> {
  await app.stop();
  const line = app
    .output()
    .split("\n")
    .find((each) => each.includes('"msg":"page shells"'));
  return JSON.parse(line ?? "{}") as { fromShell: number; rendered: number; contractBroken: number };
}

describe("domain pages from prepared shells", () => {
  it("is the page React Router renders for every kind of name, price and fee, and the shells are used", async () => {
    const names: Array<[string, number]> = [
      ["shelltest.com", 2_450_000],
      ["shellcents.com", 123_456],
      ["shelltwo.us.com", 100],
      ["shellpixel.io", 99_999_999],
      ["xn--shellmnchen-yhb.de", 1_500_000],
      ["xn--shellmnchen-yhb.com", 7_500_050],
      ["xn--80ak6aa92e.xn--p1ai", 30_000],
      ["q.co", 5_000],
    ];
    for (const [name, priceCents] of names) insertDomain(app.db(), { name, priceCents });
    for (const [name] of names) {
      const body = await expectSamePage(name);
      // Issue #26 item 4: the heading says the name is for sale; the shell's name is the page's own.
      expect(visibleText(/<h1[^>]*>(.*?)<\/h1>/s.exec(body)?.[1] ?? "").trim()).toBe(
        `${displayDomainName(name)} is for sale`,
      );
    }
    // The same shells for a Unicode path and after the fee changes, to free and back.
    expect(
      await expectSamePage("xn--shellmnchen-yhb.de", `/domain/${encodeURIComponent("shellmünchen.de")}`),
    ).toContain("shellmünchen.de is for sale");
    setFeeCents(app.db(), 0);
    expect(await expectSamePage("shelltest.com")).toContain("Start Inquiry (free)");
    setFeeCents(app.db(), 2731);
    expect(await expectSamePage("shellpixel.io")).toContain("Start Inquiry ($27.31)");

    // Pages no shell may stand in for are rendered in full, and are the same page too: a price equal
    // to the fee (React Router's data stream writes the repeat as a reference), an emoji name.
    insertDomain(app.db(), { name: "samefee.com", priceCents: 2_731 });
    insertDomain(app.db(), { name: "xn--ls8h.com", priceCents: 40_000 });
    expect(await expectSamePage("samefee.com")).toContain("$27.31");
    expect(await expectSamePage("xn--ls8h.com")).toContain("💩.com");

    // Pitches are free text: quotes, <, &, emoji and backslashes go through the shells escaped. Both
    // come from one shell (made for the first); a pitch equal to another string on the page is rendered.
    const pitched: Array<[string, string]> = [
      ["pitchone.com", `Say "hello" to <b>brand</b> & 'more' \\ caf\u00e9 \u{1F680}`],
      ["pitchtwo.io", "</script><script>alert(1)</script> &amp; &lt;"],
      ["pitchplain.com", "A plain pitch"],
    ];
    for (const [name, pitch] of pitched) {
      const id = insertDomain(app.db(), { name, priceCents: 9_900 });
      app.db().prepare("UPDATE domains SET pitch = ? WHERE id = ?").run(pitch, id);
    }
    const one = await expectSamePage("pitchone.com");
    expect(one).toContain("Say &quot;hello&quot; to &lt;b&gt;brand&lt;/b&gt; &amp; &#x27;more&#x27; \\ café 🚀");
    expect(one).toContain('<meta name="description" content="Say &quot;hello&quot;');
    expect(await expectSamePage("pitchtwo.io")).not.toContain("<script>alert(1)");
    expect(await expectSamePage("pitchplain.com")).toContain("More names like this");
    const sameAsName = insertDomain(app.db(), { name: "pitchthree.com", priceCents: 9_900 });
    app.db().prepare("UPDATE domains SET pitch = 'pitchthree.com' WHERE id = ?").run(sameAsName);
    await expectSamePage("pitchthree.com");

    const missing = await get("/domain/nothing-here-at-all");
    expect(missing.status).toBe(404);

    const stats = await shellStats();
    expect(app.output()).not.toContain("page shell not");
    // 14 pages from shells; the three that could not be were rendered (a 404 has no page to count).
    // The domain route's data has exactly the fields the shells know (SHELL_FIELDS): none fell back unseen.
    expect(stats).toMatchObject({ fromShell: 14, rendered: 3, contractBroken: 0 });
    expect(app.output()).not.toContain("page shell contract broken");
  });
});
