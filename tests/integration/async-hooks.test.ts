import path from "node:path";
import { describe, expect, it } from "vitest";
import { insertDomain, uniqueDomainName } from "../support/data";
import { request, waitFor } from "../support/http";
import { useAppServer } from "../support/vitest-server";

// React's server renderer keeps its request in an AsyncLocalStorage; in Node 20 that turns async hooks on
// for every promise and socket of the process from the first render on (about 8% of an uncached page). The
// production build gives the renderer a storage without them (vite.config.ts,
// app/server/runtime/sync-local-storage.server.ts): these pages render in full and leave them off.

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
