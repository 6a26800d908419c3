import { describe, expect, it } from "vitest";
import { useAppServer } from "../support/vitest-server";
import { insertDomain, uniqueDomainName } from "../support/data";
import { setFeeCents } from "../support/http";
import { waitFor } from "../support/wait";
import { visibleText } from "./admin-helpers";

const app = useAppServer();

async function get(path: string, init?: RequestInit) {
  const response = await fetch(new URL(path, app.url), { redirect: "manual", ...init });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

describe("buyer pages over HTTP (what a browser without JavaScript gets)", () => {
  it("serves the splash and the newest-first list of the demo portfolio", async () => {
    const page = await get("/");
    expect(page.status).toBe(200);
    expect(page.body).toContain("Premium Domain Acquisitions");
    expect(page.body).toContain('href="/domain/velora"');
    expect(page.body.indexOf('href="/domain/velora"')).toBeLessThan(page.body.indexOf('href="/domain/truenorth.app"'));
  });

  it("looks a short name up as {name}.com first, then as the raw name", async () => {
    const raw = `rawname${Date.now()}`;
    insertDomain(app.db(), { name: `${raw}.io`, priceCents: 100 });
    const dotCom = uniqueDomainName("dotcom");
    insertDomain(app.db(), { name: dotCom, priceCents: 123_400 });
    const page = await get(`/domain/${dotCom.replace(/\.com$/, "")}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain("$1,234");
    expect((await get(`/domain/${raw}.io`)).status).toBe(200);
    expect((await get(`/domain/www.${dotCom}`)).status).toBe(200);
  });

  it("with a fee of $0, the domain page promises no refund and does not call the fee a filter", async () => {
    const name = uniqueDomainName("freepage");
    insertDomain(app.db(), { name, priceCents: 100_000 });
    const path = `/domain/${name.replace(/\.com$/, "")}`;
    const paid = await get(path);
    expect(paid.body).toContain("ensures serious inquiries");
    expect(paid.body).toContain("full refund");
    setFeeCents(app.db(), 0);
    try {
      // Another process's write reaches the page cache through its data_version poll (100 ms).
      let free = await get(path);
      await waitFor(
        async () =>
          !free.body.includes("ensures serious") || !(free = await get(path)).body.includes("ensures serious"),
        2_000,
        "the free page",
      ).catch(() => {});
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
      setFeeCents(app.db(), 1999);
    }
  });

  it("answers a missing domain with the not-found view and 404", async () => {
    const page = await get("/domain/definitely-not-listed");
    expect(page.status).toBe(404);
    expect(page.body).toContain("The domain you&#x27;re looking for doesn&#x27;t exist.");
    expect(page.body).toContain("Back to Home");
  });

  it("serves the contact page", async () => {
    const page = await get("/contact/velora");
    expect(page.status).toBe(200);
    expect(page.body).toContain("Payment Required");
    expect(page.body).toContain("Secure payments processed via Stripe");
  });

  it("streams the fee as server-sent events, uncompressed", async () => {
    const controller = new AbortController();
    const response = await fetch(new URL("/events/fee", app.url), {
      signal: controller.signal,
      headers: { "Accept-Encoding": "gzip" },
    });
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    expect(response.headers.get("content-encoding")).toBeNull();
    const reader = response.body!.getReader();
    let text = "";
    while (!text.includes("event: fee")) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toContain("retry:");
    expect(text).toMatch(/data: \{"cents":\d+\}/);
    controller.abort();
  });
});
