import { beforeAll, describe, expect, it } from "vitest";
import { adminCookie, TEST_ADMIN } from "../support/admin";
import { useAppServer } from "../support/vitest-server";
import { insertDomain, uniqueDomainName } from "../support/data";
import { request, untilHeard } from "../support/http";

// The admin's edits reach visitors of cached pages on their very next request.

const app = useAppServer({ env: { ADMIN_EMAIL: TEST_ADMIN.email, ADMIN_PASSWORD: TEST_ADMIN.password } });
let cookie: string;
beforeAll(async () => {
  cookie = await adminCookie(app.url);
});

function adminPost(fields: Record<string, string>) {
  return request(app, "/admin", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: app.origin, Cookie: cookie },
    body: new URLSearchParams(fields).toString(),
  });
}

/** GETs a page until it comes from the cache (a write the test made itself, as another process, may empty it once more first). */
async function cachedPage(path: string) {
  let page = await request(app, path);
  for (let attempt = 0; attempt < 20 && page.headers.get("x-cache") !== "HIT"; attempt++)
    page = await request(app, path);
  expect(page.headers.get("x-cache")).toBe("HIT");
  return page;
}

describe("page cache and the admin's edits", () => {
  it("shows the fee the admin sets, the price the admin edits, and the domains the admin adds and deletes", async () => {
    const name = uniqueDomainName("admin-edit");
    const short = name.replace(/\.com$/, "");
    const id = insertDomain(app.db(), { name, priceCents: 700_000 });
    await untilHeard(app);
    await cachedPage(`/domain/${short}`);

    expect((await adminPost({ intent: "fee", fee: "27.35" })).status).toBe(303);
    expect((await request(app, `/domain/${short}`)).body).toContain("$27.35");

    await cachedPage(`/domain/${short}`);
    expect((await adminPost({ intent: "price", id: String(id), price: "7100" })).status).toBe(303);
    expect((await request(app, `/domain/${short}`)).body).toContain("$7,100");

    await cachedPage(`/domain/${short}`);
    expect((await adminPost({ intent: "delete", id: String(id) })).status).toBe(303);
    expect((await request(app, `/domain/${short}`)).status).toBe(404);

    const added = uniqueDomainName("admin-add");
    await cachedPage("/");
    expect((await request(app, `/domain/${added.replace(/\.com$/, "")}`)).status).toBe(404);
    const response = await adminPost({
      intent: "add",
      domainName: added,
      askingPrice: "4321",
      trackingId: "tracker",
      ownerEmail: "owner@example.test",
    });
    expect(response.status).toBe(303);
    expect((await request(app, "/")).body).toContain(added);
    expect((await request(app, `/domain/${added.replace(/\.com$/, "")}`)).status).toBe(200);
  });

  it("never serves the admin's own pages from the cache", async () => {
    await request(app, "/admin", { headers: { Cookie: cookie } });
    const panel = await request(app, "/admin", { headers: { Cookie: cookie } });
    expect(panel.body).toContain("Admin Panel");
    expect(panel.headers.get("x-cache")).toBeNull();
    const signedOut = await request(app, "/admin");
    expect(signedOut.body).toContain("Admin Login");
    expect(signedOut.headers.get("x-cache")).toBeNull();
  });
});
