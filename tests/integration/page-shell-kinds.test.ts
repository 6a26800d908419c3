import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shortDomainName } from "../../app/lib/domain-name";
import { removeDataDir, startAppServer, type AppServer } from "../support/app-server";
import { insertDomain } from "../support/data";
import { request } from "../support/http";
import { BOT_USER_AGENT, requestWithHost } from "../support/raw-http";

// Issue 27 item 4: a listed domain's lander (/ on its own host) and its /contact page come from prepared
// shells too (app/server/http/domain-shell.server.ts), each the page React Router renders byte for byte
// but the CSP nonce. The full render: /contact/ through express with the name's first dot written %2E;
// the lander with a query (the lander ignores it, and a shell is only made for / itself).

let app: AppServer;
beforeAll(async () => {
  app = await startAppServer({
    env: { PAGE_CACHE: "false", PUBLIC_URL: "https://shop.example.test", PAYMENTS: "test" },
  });
});
afterAll(async () => {
  if (app) removeDataDir(app);
});

const withoutNonces = (html: string) => html.replace(/nonce="[^"]*"/g, 'nonce=""');
const headers = { "User-Agent": BOT_USER_AGENT };

async function expectSameContact(name: string): Promise<string> {
  const short = shortDomainName(name);
  const fromShell = await request(app, `/contact/${encodeURIComponent(short)}`, { headers });
  const rendered = await request(app, `/contact/${name.replace(".", "%2E")}`, { headers });
  expect(fromShell.status, name).toBe(200);
  expect(rendered.status, name).toBe(200);
  expect(withoutNonces(fromShell.body), name).toBe(withoutNonces(rendered.body));
  return fromShell.body;
}

async function expectSameLander(name: string): Promise<string> {
  const fromShell = await requestWithHost(app.url, "/", name, { headers });
  const rendered = await requestWithHost(app.url, "/?full=1", name, { headers });
  expect(fromShell.status, name).toBe(200);
  expect(rendered.status, name).toBe(200);
  expect(withoutNonces(fromShell.body), name).toBe(withoutNonces(rendered.body));
  return fromShell.body;
}

describe("landers and contact pages from prepared shells", () => {
  it("are the pages React Router renders, for every kind of name, and the shells are used", async () => {
    const names: Array<[string, number, string | null]> = [
      ["kindshell.com", 2_450_000, null],
      ["kindcents.com", 123_456, null],
      ["kindtwo.us.com", 100, null],
      ["xn--kindmnchen-yhb.de", 1_500_000, null],
      ["kindpitch.io", 99_999_999, `Say "hello" to <b>brand</b> & 'more' \u{1F680}`],
      ["kindpitchtwo.io", 40_000, "</script><script>alert(1)</script>"],
    ];
    for (const [name, priceCents, pitch] of names) {
      const id = insertDomain(app.db(), { name, priceCents });
      if (pitch) app.db().prepare("UPDATE domains SET pitch = ? WHERE id = ?").run(pitch, id);
    }
    for (const [name] of names) {
      const contact = await expectSameContact(name);
      expect(contact).toContain("Payment Required");
      expect(contact).toContain(`href="/payment/${encodeURIComponent(shortDomainName(name))}"`);
      const lander = await expectSameLander(name);
      expect(lander).toContain("is for sale");
      expect(lander).toContain('href="https://shop.example.test/"');
    }
    expect(await expectSameLander("kindpitch.io")).toContain("Say &quot;hello&quot; to &lt;b&gt;brand&lt;/b&gt;");
    expect(await expectSameLander("kindpitchtwo.io")).not.toContain("<script>alert(1)");

    // Not listed pages: the browse page at / on the site's own host, a contact page for no name.
    const browse = await request(app, "/", { headers });
    expect(browse.status).toBe(200);
    expect((await request(app, "/contact/nothing-here-at-all", { headers })).status).toBe(404);

    await app.stop();
    const line = app
      .output()
      .split("\n")
      .find((each) => each.includes('"msg":"page shells"'));
    const stats = JSON.parse(line ?? "{}") as { fromShell: number; rendered: number; contractBroken: number };
    expect(app.output()).not.toContain("page shell not");
    expect(app.output()).not.toContain("page shell contract broken");
    // Every contact page and lander asked for at its own address came from a shell: 6 + 6 + 2.
    expect(stats).toMatchObject({ fromShell: 14, rendered: 0, contractBroken: 0 });
  });
});
