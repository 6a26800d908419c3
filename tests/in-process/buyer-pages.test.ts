import { describe, expect, it } from "vitest";
import { createDomain, setFeeCents } from "../support/factories";
import { letterTag } from "../support/data";
import { render } from "../support/in-process/document";
import { visibleText } from "../support/visible-text";

// The buyer's pages as a browser without JavaScript gets them. The fee's stream (server-sent events, left
// uncompressed by the server) is tested against the server: tests/integration/buyer-pages.test.ts.
describe("buyer pages (what a browser without JavaScript gets)", () => {
  it("serves the splash and the newest-first list of the demo portfolio", async () => {
    const page = await render("/");
    expect(page.status).toBe(200);
    expect(page.body).toContain("Premium Domain Acquisitions");
    expect(page.body).toContain('href="/domain/velora"');
    expect(page.body.indexOf('href="/domain/velora"')).toBeLessThan(page.body.indexOf('href="/domain/truenorth.app"'));
  });

  it("looks a short name up as {name}.com first, then as the raw name", async () => {
    const raw = letterTag("rawname", 8);
    await createDomain({ name: `${raw}.io`, priceCents: 100 });
    const dotCom = await createDomain({ prefix: "dotcom", priceCents: 123_400 });
    const page = await render(`/domain/${dotCom.short}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain("$1,234");
    expect((await render(`/domain/${raw}.io`)).status).toBe(200);
    expect((await render(`/domain/www.${dotCom.domain_name}`)).status).toBe(200);
  });

  it("with a fee of $0, the domain page promises no refund and does not call the fee a filter", async () => {
    const { short } = await createDomain({ prefix: "freepage", priceCents: 100_000 });
    const path = `/domain/${short}`;
    const paid = await render(path);
    expect(paid.body).toContain("ensures serious inquiries");
    expect(paid.body).toContain("full refund");
    await setFeeCents(0);
    try {
      const free = await render(path);
      expect(free.status).toBe(200);
      // The page's own text (the footer links every page to the refund policy).
      const main = /<main[\s\S]*<\/main>/.exec(free.body)?.[0] ?? "";
      expect(main).not.toBe("");
      expect(visibleText(main).match(/.{0,80}refund.{0,40}/i)?.[0]).toBeUndefined();
      expect(free.body).not.toContain("serious inquiries");
      expect(visibleText(free.body)).not.toContain("$0");
      expect(free.body).toContain("currently <strong>free</strong>");
      expect(free.body).toContain("Start Inquiry (free)");
    } finally {
      await setFeeCents(1999);
    }
  });

  it("answers a missing domain with the not-found view and 404", async () => {
    const page = await render("/domain/definitely-not-listed");
    expect(page.status).toBe(404);
    expect(page.body).toContain("The domain you&#x27;re looking for doesn&#x27;t exist.");
    expect(page.body).toContain("Back to Home");
  });

  it("serves the contact page", async () => {
    const page = await render("/contact/velora");
    expect(page.status).toBe(200);
    expect(page.body).toContain("Payment Required");
    expect(page.body).toContain("Secure payments processed via Stripe");
  });
});
