import { describe, expect, it } from "vitest";
import { useAppServer } from "../support/vitest-server";
import { insertDomain, uniqueDomainName } from "../support/data";
import { request } from "../support/http";

// On PostgreSQL a page view's reads run as prepared statements, one per pooled connection
// (database.server.ts, runPrepared). Another process may change the schema under them (a deploy that
// migrates while this server still runs): a statement whose result changed shape no longer runs on the
// server, and the page must not fail for it.
const app = useAppServer({ database: "postgres", env: { PAGE_CACHE: "false" } });

const short = (name: string) => name.replace(/\.com$/, "");

describe("a page view's reads on PostgreSQL", () => {
  it("go on answering after another process adds a column to the table they read", async () => {
    const name = uniqueDomainName("prepared");
    insertDomain(app.db(), { name, priceCents: 321_000 });
    await app.settle();
    // Enough views that every pooled connection has prepared the page's reads.
    for (let i = 0; i < 30; i += 1) expect((await request(app, `/domain/${short(name)}`)).status).toBe(200);

    app.db().prepare("ALTER TABLE domains ADD COLUMN prepared_test_note text").run();
    for (let i = 0; i < 30; i += 1) {
      const page = await request(app, `/domain/${short(name)}`);
      expect(page.status).toBe(200);
      expect(page.body).toContain("$3,210");
    }
    expect(app.output()).toContain("query no longer prepared");
  });
});
