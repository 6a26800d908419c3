import { beforeAll, describe, expect, it } from "vitest";
import { TEST_ADMIN, adminCookie } from "../support/admin";
import { useAppServer } from "../support/vitest-server";
import { insertDomain, uniqueDomainName } from "../support/data";
import { BUYER, postForm, request, waitFor } from "../support/http";
import { BOT_USER_AGENT, requestWithHost } from "../support/raw-http";
import { http, visibleText, withoutSpans } from "./admin-helpers";

const app = useAppServer({ env: { ADMIN_EMAIL: TEST_ADMIN.email, ADMIN_PASSWORD: TEST_ADMIN.password } });
let cookie: string;
beforeAll(async () => {
  cookie = await adminCookie(app.url);
});

/** Pays a started inquiry's test checkout with 4242 and comes back to the payment page, as a buyer would. */
async function payWithTestCard(checkoutPath: string) {
  const paid = await postForm(app, checkoutPath, { card_number: "4242 4242 4242 4242", expiry: "12/40", cvc: "123" });
  expect(paid.status).toBe(303);
  const back = new URL(paid.headers.get("location")!, app.url);
  expect((await request(app, back.pathname + back.search)).body).toContain("Payment Successful!");
}

function newDomain(prefix: string) {
  const name = uniqueDomainName(prefix);
  return { id: insertDomain(app.db(), { name, priceCents: 800_000 }), name, short: name.replace(/\.com$/, "") };
}
const totalViews = (id: number) =>
  (
    app.db().prepare("SELECT views FROM domain_view_totals WHERE domain_id = ?").get(id) as
      { views: number } | undefined
  )?.views ?? 0;

/** The table row of one domain on the admin page, as text. */
function rowText(html: string, name: string): string {
  const row = [...html.matchAll(/<tr[\s\S]*?<\/tr>/g)]
    .map((match) => match[0])
    .find((tr) => withoutSpans(tr).includes(`>${name}</a>`));
  return row ? visibleText(row) : "";
}

describe("per-domain funnel in the admin", () => {
  it("says the highest day had 0 views when no day had any (not 1)", async () => {
    const name = uniqueDomainName("noviews");
    const id = insertDomain(app.db(), { name, priceCents: 100 });
    const text = visibleText((await http(app, `/admin/domains/${id}`, { cookie })).body);
    expect(text).toContain("No views yet");
    expect(text).not.toMatch(/highest day: 1\b/);
  });

  it("counts scripted visits, inquiries started and paid, shows them in the table, sorted, and on the detail page", async () => {
    const popular = newDomain("popular");
    const quiet = newDomain("quiet");
    for (let i = 0; i < 4; i++) await requestWithHost(app.url, `/domain/${popular.short}`, "localhost");
    await requestWithHost(app.url, "/", popular.name);
    await requestWithHost(app.url, `/domain/${popular.short}`, "localhost", {
      headers: { "User-Agent": BOT_USER_AGENT },
    });
    await requestWithHost(app.url, `/domain/${quiet.short}`, "localhost");
    // Two inquiries started through the no-JavaScript form; one of them paid with the test card.
    const first = await postForm(app, `/payment/${popular.short}`, { intent: "inquiry", ...BUYER });
    expect(first.status).toBe(303);
    await postForm(app, `/payment/${popular.short}`, { intent: "inquiry", ...BUYER, offer: "" });
    await payWithTestCard(first.headers.get("location")!);
    await waitFor(
      () => app.db().prepare("SELECT 1 FROM inquiries WHERE domain_id = ? AND status = 'paid'").get(popular.id),
      10_000,
      "paid inquiry",
    );
    await waitFor(() => totalViews(popular.id) === 5 && totalViews(quiet.id) === 1, 10_000, "view counts");

    const byViews = await http(app, "/admin?sort=views-desc", { cookie });
    expect(byViews.status).toBe(200);
    const byViewsNames = withoutSpans(byViews.body);
    expect(byViewsNames.indexOf(`>${popular.name}</a>`)).toBeLessThan(byViewsNames.indexOf(`>${quiet.name}</a>`));
    expect(byViewsNames.indexOf(`>${popular.name}</a>`)).toBeGreaterThan(0);
    expect(rowText(byViews.body, popular.name)).toMatch(/ Inquiries 1 paid Views 5 Started 2 /);
    expect(rowText(byViews.body, quiet.name)).toMatch(/ Inquiries 0 paid Views 1 Started 0 /);
    const detailLink = new RegExp(
      `<a aria-label="5 views, funnel and minimum offer of ${popular.name}"[^>]*href="/admin/domains/${popular.id}"`,
    );
    expect(byViews.body).toMatch(detailLink);
    expect(byViews.body).toMatch(/<th[^>]*aria-sort="descending"[^>]*><a[^>]*>Views/);

    const byStarted = await http(app, "/admin?sort=started-desc", { cookie });
    const topRow = [...byStarted.body.matchAll(/<tbody[\s\S]*?<tr[\s\S]*?<\/tr>/g)][0]![0];
    expect(withoutSpans(topRow)).toContain(`>${popular.name}</a>`);

    const detail = await http(app, `/admin/domains/${popular.id}`, { cookie });
    expect(detail.status).toBe(200);
    const text = visibleText(detail.body);
    expect(text).toContain("Page views 5");
    expect(text).toContain("Inquiries started 2");
    expect(text).toContain("Inquiries paid 1");
    expect(text).toContain("Views to inquiries 40.0%");
    const today = new Date().toISOString().slice(0, 10);
    expect(detail.body).toContain(`data-day="${today}" data-views="5"`);
    expect(detail.body.match(/data-day="/g)).toHaveLength(30);
    expect(detail.body).toMatch(
      /<svg[^>]*role="img"[^>]*aria-label="Page views per day from [^"]+: 5 in total, at most 5 a day."/,
    );
  });

  it("counts a refunded inquiry as paid", async () => {
    const domain = newDomain("refunded");
    const started = await postForm(app, `/payment/${domain.short}`, { intent: "inquiry", ...BUYER });
    await payWithTestCard(started.headers.get("location")!);
    await waitFor(
      () => app.db().prepare("SELECT 1 FROM inquiries WHERE domain_id = ? AND status = 'paid'").get(domain.id),
      10_000,
      "paid",
    );
    app
      .db()
      .prepare("UPDATE inquiries SET status = 'refunded', refunded_at = ? WHERE domain_id = ?")
      .run(new Date().toISOString(), domain.id);
    expect(visibleText((await http(app, `/admin/domains/${domain.id}`, { cookie })).body)).toContain(
      "Inquiries paid 1",
    );
  });

  it("is for the admin only", async () => {
    const domain = newDomain("private");
    const anonymous = await http(app, `/admin/domains/${domain.id}`);
    expect(anonymous.status).toBe(303);
    expect(anonymous.location).toBe("/admin");
    const post = await http(app, `/admin/domains/${domain.id}`, {
      form: { intent: "min-offer", minOffer: "1" },
      headers: { Origin: app.origin },
    });
    expect(post.status).toBe(303);
    expect(app.db().prepare("SELECT min_offer_cents FROM domains WHERE id = ?").get(domain.id)).toEqual({
      min_offer_cents: null,
    });
    expect((await http(app, "/admin/domains/999999999", { cookie })).status).toBe(404);
    expect((await http(app, "/admin/domains/abc", { cookie })).status).toBe(404);
  });
});

describe("setting the minimum offer (no JavaScript)", () => {
  it("saves, refuses a bad amount, and clears", async () => {
    const domain = newDomain("minimum");
    const origin = { Origin: app.origin };
    const minOffer = () =>
      (
        app.db().prepare("SELECT min_offer_cents AS cents FROM domains WHERE id = ?").get(domain.id) as {
          cents: number | null;
        }
      ).cents;

    const saved = await http(app, `/admin/domains/${domain.id}`, {
      cookie,
      headers: origin,
      form: { intent: "min-offer", minOffer: "12,500" },
    });
    expect(saved.status).toBe(303);
    expect(saved.location).toBe(`/admin/domains/${domain.id}?notice=min-offer-saved`);
    expect(minOffer()).toBe(1_250_000);
    const page = await http(app, saved.location!, { cookie });
    expect(visibleText(page.body)).toContain("Minimum offer saved.");
    expect(page.body).toContain('value="12500.00"');
    // Still not on the buyer's pages.
    expect((await http(app, `/domain/${domain.short}`)).body).not.toMatch(/12,500|12500/);

    const bad = await http(app, `/admin/domains/${domain.id}`, {
      cookie,
      headers: origin,
      form: { intent: "min-offer", minOffer: "lots" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatch(/role="alert"[^>]*>Please enter a valid amount, or leave it empty for no minimum/);
    expect(minOffer()).toBe(1_250_000);

    const cleared = await http(app, `/admin/domains/${domain.id}`, {
      cookie,
      headers: origin,
      form: { intent: "min-offer", minOffer: "" },
    });
    expect(cleared.location).toBe(`/admin/domains/${domain.id}?notice=min-offer-cleared`);
    expect(minOffer()).toBeNull();
  });
});
