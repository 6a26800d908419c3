import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeDataDir, startAppServer, type AppServer } from "../support/app-server";

// Per-address limits with several processes on one database (RATE_LIMIT_STORE=database, the default on
// PostgreSQL): an address gets its limit once across all of them, not once per process. The search
// limit is the cheapest to use up (no scrypt run per attempt): 4 searches a minute here.
const LIMIT = 4;
const servers: AppServer[] = [];

async function startPair(store: "database" | "memory"): Promise<[AppServer, AppServer]> {
  const env = { RATE_LIMIT_STORE: store, SEARCHES_PER_MINUTE: String(LIMIT), TRUST_PROXY: "true", SEED_DEMO: "false" };
  const first = await startAppServer({ env });
  servers.push(first);
  const second = await startAppServer({ env, dataDir: first.dataDir });
  servers.push(second);
  return [first, second];
}

/** A new search term each time, so the page cache cannot answer it and the limit is asked. */
const search = (server: AppServer, address: string) =>
  fetch(new URL(`/?q=${randomBytes(4).toString("hex")}`, server.url), { headers: { "X-Forwarded-For": address } }).then(
    (response) => response.status,
  );

afterAll(async () => {
  for (const server of servers) await server.stop();
  for (const server of servers) removeDataDir(server);
});

describe("RATE_LIMIT_STORE=database: two processes count one address together", () => {
  let pair: [AppServer, AppServer];
  beforeAll(async () => {
    pair = await startPair("database");
  });

  it(`allows ${LIMIT} searches in all, alternating between the processes, then refuses on both`, async () => {
    const answers: number[] = [];
    for (let i = 0; i < LIMIT; i++) answers.push(await search(pair[i % 2]!, "10.7.0.1"));
    expect(answers).toEqual(Array(LIMIT).fill(200));
    expect(await search(pair[0], "10.7.0.1")).toBe(429);
    expect(await search(pair[1], "10.7.0.1")).toBe(429);
    // Another address still has its own allowance.
    expect(await search(pair[1], "10.7.0.2")).toBe(200);
  });
});

describe("RATE_LIMIT_STORE=memory: each process counts alone (one process, the SQLite default)", () => {
  let pair: [AppServer, AppServer];
  beforeAll(async () => {
    pair = await startPair("memory");
  });

  it(`allows ${LIMIT} searches per process`, async () => {
    const answers: number[] = [];
    for (let i = 0; i < 2 * LIMIT; i++) answers.push(await search(pair[i % 2]!, "10.8.0.1"));
    expect(answers).toEqual(Array(2 * LIMIT).fill(200));
    expect(await search(pair[0], "10.8.0.1")).toBe(429);
  });
});
