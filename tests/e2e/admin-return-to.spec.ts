import { insertPaidInquiry, signInAdmin } from "../support/admin";
import { insertDomain, uniqueDomainName } from "../support/data";
import { expect, test } from "../support/fixtures";

// A forged returnTo that starts with /admin but resolves to another site (//evil.example/x) must not take
// the admin there after a form post, with JavaScript (a client navigation) or without (a 303).
test("a forged returnTo leaves the admin on the inbox, not on another site", async ({ page, app }) => {
  const name = uniqueDomainName("returnto");
  const domainId = insertDomain(app.db(), { name, priceCents: 10_000 });
  insertPaidInquiry(app.db(), { domainId, domainName: name, name: "Grace Buyer" });
  // Were the browser sent there, it would show this page instead of failing for want of a network.
  await page.route("http://evil.example/**", (route) =>
    route.fulfill({ contentType: "text/html", body: "<h1>Another site</h1>" }),
  );
  await signInAdmin(page);
  await page.goto(`/admin/inquiries?domain=${name}`);
  // The form as the page wrote it, with its returnTo changed on the way (as a forged post would send it).
  await page.route("**/admin/inquiries*", async (route) => {
    const body = route.request().postData();
    if (route.request().method() !== "POST" || !body) return route.continue();
    const form = new URLSearchParams(body);
    form.set("returnTo", "/admin/..//evil.example/x");
    await route.continue({ postData: form.toString() });
  });
  await page
    .getByRole("article", { name: `Grace Buyer about ${name}` })
    .getByRole("button", { name: "Mark answered" })
    .click();
  await expect(page.getByRole("status")).toHaveText("Inquiry marked as answered.");
  expect(new URL(page.url()).origin).toBe(new URL(app.url).origin);
  expect(new URL(page.url()).pathname).toBe("/admin/inquiries");
  await expect(page.getByRole("heading", { name: "Another site" })).toHaveCount(0);
});
