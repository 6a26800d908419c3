import { afterAll, beforeAll, expect, it } from "vitest";
import { formatLoadResult, LOAD_SERVER_ENV, runLoad } from "../../scripts/load-test";
import { removeDataDir, startAppServer, type AppServer } from "../support/app-server";

// A short run of `npm run test:load` (same module, 10 buyers for 5 s), so the load test cannot rot.
let app: AppServer;

beforeAll(async () => {
  app = await startAppServer({ env: LOAD_SERVER_ENV });
});
afterAll(async () => {
  await app?.stop();
  if (app) removeDataDir(app);
});

it("10 buyers for 5 s (both payment paths) while the admin edits fee and prices: nothing failed, lost or mismatched", async () => {
  const result = await runLoad({ url: app.url, database: app.env.DATABASE_URL!, seconds: 5, buyers: 10 });
  console.log(formatLoadResult(result));
  expect([...result.failureSamples, ...result.mismatchSamples]).toEqual([]);
  expect(result).toMatchObject({ failures: 0, mismatches: 0, rowsLost: 0, ok: true });
  expect(result.inquiriesCompleted).toBeGreaterThan(0);
  // At least one fee or price edit landed during the load (the admin signs in before it starts).
  expect(result.adminEdits).toBeGreaterThan(0);
});
