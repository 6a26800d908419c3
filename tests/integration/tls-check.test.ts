import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeDataDir, startAppServer, type AppServer } from "../support/app-server";
import { insertDomain, uniqueDomainName } from "../support/data";
import { startDnsStub, type DnsStub } from "../support/dns";

// /tls-check, which Caddy's on-demand TLS asks before ordering a certificate: a listed domain is approved
// only while its DNS points at this server. DNS answers come from a real DNS server on 127.0.0.1
// (tests/support/dns.ts), never the internet's.
const THIS_SERVER = "192.0.2.10";
const THIS_SERVER_V6 = "2001:db8::10";
const ELSEWHERE = "198.51.100.7";

let dns: DnsStub;
const servers: AppServer[] = [];
const pointed = uniqueDomainName("pointed");
const pointedV6 = uniqueDomainName("pointed-v6");
const elsewhere = uniqueDomainName("elsewhere");
const nowhere = uniqueDomainName("nowhere");
const unlisted = uniqueDomainName("unlisted");

beforeAll(async () => {
  dns = await startDnsStub();
  dns.set("shop.example", [THIS_SERVER, THIS_SERVER_V6]);
  dns.set(pointed, [THIS_SERVER]);
  dns.set(`www.${pointed}`, [THIS_SERVER]);
  dns.set(pointedV6, [THIS_SERVER_V6]);
  dns.set(elsewhere, [ELSEWHERE]);
  dns.set(`www.${elsewhere}`, [THIS_SERVER]);
  dns.set(unlisted, [THIS_SERVER]);
});
afterAll(async () => {
  for (const server of servers) {
    await server.stop();
    removeDataDir(server);
  }
  await dns?.stop();
});

async function start(env: Record<string, string>): Promise<AppServer> {
  const server = await startAppServer({
    env: { PUBLIC_URL: "https://shop.example", PAYMENTS: "test", SEED_DEMO: "false", DNS_SERVERS: dns.server, ...env },
  });
  servers.push(server);
  for (const name of [pointed, pointedV6, elsewhere, nowhere]) insertDomain(server.db(), { name, priceCents: 100_000 });
  return server;
}

const ask = async (server: AppServer, name: string) =>
  (await fetch(new URL(`/tls-check?domain=${encodeURIComponent(name)}`, server.url))).status;

describe("with this server's addresses learned from PUBLIC_URL's DNS", () => {
  let server: AppServer;
  beforeAll(async () => {
    server = await start({});
  });

  it("approves listed names that resolve here (A or AAAA, www. form too) and the site's own name", async () => {
    expect(await ask(server, pointed)).toBe(200);
    expect(await ask(server, `www.${pointed}`)).toBe(200);
    expect(await ask(server, pointedV6)).toBe(200);
    expect(await ask(server, "shop.example")).toBe(200);
  });

  it("refuses listed names whose DNS points elsewhere or nowhere, and unlisted names that point here", async () => {
    expect(await ask(server, elsewhere)).toBe(404);
    expect(await ask(server, `www.${elsewhere}`)).toBe(200); // its www. name does point here
    expect(await ask(server, nowhere)).toBe(404);
    expect(await ask(server, unlisted)).toBe(404);
    expect(dns.asked(unlisted)).toBe(0); // not listed: no DNS question at all
  });

  it("caches lookups: asking again does not ask DNS again", async () => {
    const name = uniqueDomainName("cached");
    dns.set(name, [THIS_SERVER]);
    insertDomain(server.db(), { name, priceCents: 100_000 });
    expect(await ask(server, name)).toBe(200);
    const questions = dns.asked(name);
    expect(questions).toBeGreaterThan(0);
    dns.set(name, [ELSEWHERE]);
    for (let i = 0; i < 5; i++) expect(await ask(server, name)).toBe(200);
    expect(dns.asked(name)).toBe(questions);
  });
});

describe("TLS_CHECK_ADDRESSES", () => {
  it("names this server's addresses", async () => {
    const server = await start({ TLS_CHECK_ADDRESSES: ELSEWHERE });
    expect(await ask(server, elsewhere)).toBe(200);
    expect(await ask(server, pointed)).toBe(404);
  });

  it("any: every listed name, no DNS check (as before)", async () => {
    const server = await start({ TLS_CHECK_ADDRESSES: "any" });
    for (const name of [pointed, elsewhere, nowhere]) expect(await ask(server, name)).toBe(200);
    expect(await ask(server, unlisted)).toBe(404);
  });

  it("a value that is not addresses stops the start naming it", async () => {
    const failure = await startAppServer({ env: { TLS_CHECK_ADDRESSES: "this-server.example" } }).then(
      async (server) => {
        await server.stop();
        removeDataDir(server);
        return "";
      },
      (error: Error) => error.message,
    );
    expect(failure).toContain("TLS_CHECK_ADDRESSES:");
  });
});
