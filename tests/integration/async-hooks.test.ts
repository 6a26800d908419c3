import path from "node:path";
import { describe, expect, it } from "vitest";
import { insertDomain, uniqueDomainName } from "../support/data";
import { request, waitFor } from "../support/http";
import { useAppServer } from "../support/vitest-server";

// React's server renderer keeps its request in an AsyncLocalStorage. In Node 20 its first `run` turned
// async hooks on for every promise and socket of the process (about 8% of an uncached page), so the build
// once gave the renderer a storage of its own. Node 24's AsyncLocalStorage uses AsyncContextFrame and no
// async hooks: with React's renderer as it ships, these pages render in full and leave them off.

const probe = path.resolve(import.meta.dirname, "../support/async-hooks-probe.mjs");
const app = useAppServer({ env: { PAGE_CACHE: "false", NODE_OPTIONS: `--import ${probe}` } });

async function asyncHooksOn(): Promise<boolean> {
  const before = app.output().length;
  app.process.kill("SIGUSR2");
  const line = await waitFor(() => /\{"asyncHooksOn":(true|false)\}/.exec(app.output().slice(before))?.[1]);
  return line === "true";
}

describe("async hooks under the renderer", () => {
  it("stay off after full renders of the public pages, streamed and not", async () => {
    const name = uniqueDomainName("hooks");
    insertDomain(app.db(), { name, priceCents: 450_000 });
    const short = name.replace(/\.com$/, "");
    expect(await asyncHooksOn()).toBe(false);
    for (const page of [`/domain/${short}`, `/contact/${short}`, "/", "/?q=hooks", "/admin"]) {
      const reply = await request(app, page);
      expect(reply.status, page).toBe(200);
      if (page.startsWith("/domain/")) expect(reply.body).toContain("$4,500");
    }
    expect(await asyncHooksOn()).toBe(false);
  });
});
