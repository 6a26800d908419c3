// `npm run bench`: throughput and latency of the public pages against two baselines measured in the same
// run on the same machine, page weights, server times over 100,000 domains, the live-fee fan-out to many
// subscribers, the "crawl" (every name once, in random order) and Lighthouse. Options: --duration=8
// --connections=50 --domains=100000 --subscribers=10000 --rounds=3 --crawl=100000 --crawl-connections=10
// --skip-build --skip-lighthouse --skip-sse --skip-postgres --skip-crawl --skip-filters (--help lists them).
// The servers run with an operator's defaults (request logs on). The run ends with one table, both engines
// side by side, each row with its target and "met"/"not met", and a line naming the machine; --write-docs
// also puts it into docs/performance.md (bench/docs-figures.ts). The figures are reported, not asserted.
// The home page's filters get a server-time row per combination (bench/browse-rows.ts) on both engines,
// and their query plans (scripts/explain-browse.ts).
// Unless --skip-postgres, the same names are seeded into an embedded PostgreSQL too, and the domain page
// (cached and not), the admin pages and the fee fan-out are measured on it in the same run, beside SQLite.
import autocannon from "autocannon";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { generatedDomainName } from "../db/seed-many";
import { renderFiguresTable, replaceFiguresBlock, writeFiguresToDoc, type BenchRow } from "../bench/docs-figures";
import { BROWSE_ROWS } from "../bench/browse-rows";
import { benchInsightsAlone, INSIGHTS_TARGET_MS, insightsRows } from "../bench/insights";
import { DEALS_TARGET_MS, dealsRows } from "../bench/deals";
import { runLighthouse, type LighthouseResult } from "../bench/lighthouse";
import { sseLoad, type FeeChange, type SseResult } from "../bench/sse-load";
import {
  alternatingTimings,
  cpuSeconds,
  freePort,
  rawGet,
  residentBytes,
  sequentialTimings,
  startProcess,
  startWriter,
  waitForHttp,
  type Running,
  type Timing,
  type Writer,
} from "../bench/support";
import { startPostgresServer, type PostgresServer } from "../tests/support/postgres";
import { BOT_USER_AGENT, BROWSER_USER_AGENT } from "../tests/support/raw-http";
import pg from "pg";

const root = path.resolve(import.meta.dirname, "..");
const PERFORMANCE_DOC = path.join(root, "docs/performance.md");
const option = (name: string, fallback: number) =>
  Number(process.argv.find((arg) => arg.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);
const flag = (name: string) => process.argv.includes(`--${name}`);
const DURATION = option("duration", 8);
const CONNECTIONS = option("connections", 50);
const DOMAINS = option("domains", 100_000);
const SUBSCRIBERS = option("subscribers", 10_000);
const ROUNDS = option("rounds", 5);
/**
 * Seconds of load each target gets before its rounds. A fresh Node server speeds up for a while under
 * load (V8 optimises the hot paths, the heap finds its size): the stock app went 912, 1,050, 1,053,
 * 1,088, 1,204, 1,232, 1,279, 1,285 req/s in eight 3-second runs from a cold start; a rate measured
 * before that compares a warm server with a cold one.
 */
const WARMUP = option("warmup", 15);
const CRAWL = option("crawl", DOMAINS);
const CRAWL_CONNECTIONS = option("crawl-connections", 10);
/** Requests of each page the domain page is compared with (contact, lander), taking turns with it. */
const COMPARED_PAGE_REQUESTS = 100;
// What a search engine's crawler sends: it takes compressed pages and is recognised as a bot.
const CRAWLER_HEADERS = { "User-Agent": BOT_USER_AGENT, "Accept-Encoding": "gzip, deflate, br" };
const BROWSER_HEADERS = { "User-Agent": BROWSER_USER_AGENT, "Accept-Encoding": "gzip, deflate, br" };
/** Names read once each by browsers after the crawl: what the page cache holds of them gives pages per MB. */
const BROWSER_READS = 2_000;
const ADMIN = { email: "bench-admin@example.test", password: "bench-password-123" };

interface Measured {
  label: string;
  rps: number;
  /** The server's CPU per request in µs (median of its rounds), when its process is known. */
  cpuUs?: number;
  p50: number;
  p99: number;
  errors: number;
  note?: string;
}

const running: Running[] = [];
const cleanups: Array<() => Promise<void>> = [];
const dataDir = mkdtempSync(path.join(os.tmpdir(), "domains-bench-"));
const log = (text = "") => console.log(text);
const fmt = (value: number, digits = 0) =>
  Number.isFinite(value)
    ? value.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : "n/a";
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
/** ", 1,150 µs of CPU per request" when the server's CPU was measured (a first render against the stock app's). */
const cpuFigure = (row: Measured) => (row.cpuUs === undefined ? "" : `, ${fmt(row.cpuUs)} µs of CPU per request`);

interface Target {
  label: string;
  url: string;
  headers?: Record<string, string>;
  paths?: () => string;
  /** The server's process: its CPU per request is measured too (/proc/PID/stat). */
  pid?: number;
}

async function run(target: Target, duration: number): Promise<Measured> {
  const requests = target.paths
    ? [{ setupRequest: (request: { path: string }) => ({ ...request, path: target.paths!() }) }]
    : undefined;
  const cpuBefore = cpuSeconds(target.pid);
  const result = await autocannon({
    url: target.url,
    connections: CONNECTIONS,
    duration,
    headers: target.headers,
    requests,
  });
  return {
    label: target.label,
    rps: result.requests.average,
    cpuUs: cpuPerRequest(cpuBefore, cpuSeconds(target.pid), result.requests.total),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** µs of a server's CPU per request over a measurement, from its CPU seconds before and after. */
function cpuPerRequest(before: number | null, after: number | null, requests: number): number | undefined {
  return before === null || after === null || requests === 0 ? undefined : ((after - before) * 1e6) / requests;
}

/**
 * The targets take turns, ROUNDS times, so a change in the machine's load (other processes) hits
 * them alike; each figure is the median of its rounds. Each round starts one target further on, so no
 * target always follows the same one (a slow target's last requests and garbage collection then fall on
 * every target in turn, not always on its neighbour).
 */
async function interleaved(targets: Target[]): Promise<Measured[]> {
  const perRound = Math.max(2, Math.round(DURATION / ROUNDS));
  for (const target of targets) await run(target, WARMUP);
  const rounds: Measured[][] = targets.map(() => []);
  for (let round = 0; round < ROUNDS; round += 1) {
    for (let turn = 0; turn < targets.length; turn += 1) {
      const index = (round + turn) % targets.length;
      rounds[index]!.push(await run(targets[index]!, perRound));
    }
  }
  return targets.map((target, index) => {
    const results = rounds[index]!;
    const measured = {
      label: target.label,
      rps: median(results.map((result) => result.rps)),
      cpuUs: results.every((result) => result.cpuUs !== undefined)
        ? median(results.map((result) => result.cpuUs!))
        : undefined,
      p50: median(results.map((result) => result.p50)),
      p99: median(results.map((result) => result.p99)),
      errors: results.reduce((sum, result) => sum + result.errors, 0),
      note: `rounds: ${results.map((result) => fmt(result.rps)).join(" / ")}`,
    };
    log(`  measured ${target.label}: ${fmt(measured.rps)} req/s`);
    return measured;
  });
}

async function measure(label: string, url: string, init: Omit<Target, "label" | "url"> = {}): Promise<Measured> {
  return (await interleaved([{ label, url, ...init }]))[0]!;
}

const sqliteUrl = `file:${path.join(dataDir, "app.db")}`;
// With a PostgreSQL DATABASE_URL every process must share SESSION_SECRET (env.server.ts).
const SESSION_SECRET = "bench-session-secret-0123456789";

async function startApp(extraEnv: Record<string, string> = {}): Promise<Running> {
  const app = await startProcess(["server.ts"], {
    cwd: root,
    env: {
      PORT: "0",
      NODE_ENV: "production",
      DATABASE_URL: sqliteUrl,
      SEED_DEMO: "false",
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      ...extraEnv,
    },
    ready: (output) =>
      /"url":"([^"]+)"[^\n]*"msg":"listening"/.exec(output)?.[1]?.replace("localhost", "127.0.0.1") ?? null,
  });
  running.push(app);
  return app;
}

/** Signs in through the login form over HTTP, as a browser without JavaScript would; null if there is no /admin yet. */
async function adminCookie(baseUrl: string): Promise<string | null> {
  const page = await fetch(new URL("/admin", baseUrl));
  const html = await page.text();
  if (page.status !== 200 || !/type="password"/.test(html)) return null;
  const form = /<form[^>]*method="post"[^>]*>([\s\S]*?)<\/form>/i.exec(html)?.[1] ?? "";
  const attribute = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
  const body = new URLSearchParams();
  for (const [tag] of form.matchAll(/<input[^>]*>/g)) {
    const name = attribute(tag, "name");
    if (!name) continue;
    const type = attribute(tag, "type");
    body.set(
      name,
      type === "email" ? ADMIN.email : type === "password" ? ADMIN.password : (attribute(tag, "value") ?? ""),
    );
  }
  for (const [tag] of form.matchAll(/<button[^>]*>/g)) {
    const name = attribute(tag, "name");
    if (name) body.set(name, attribute(tag, "value") ?? "");
  }
  const response = await fetch(new URL("/admin", baseUrl), {
    method: "POST",
    body,
    redirect: "manual",
    headers: { Origin: new URL(baseUrl).origin, "Content-Type": "application/x-www-form-urlencoded" },
  });
  const cookies = response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
  if (!cookies) return null;
  const check = await fetch(new URL("/admin", baseUrl), { headers: { Cookie: cookies } });
  return /Sign Out/i.test(await check.text()) ? cookies : null;
}

/** Every script the page loads (module preloads, then their static imports), as gzip bytes on the wire. */
async function pageWeights(
  pageUrl: string,
): Promise<{ htmlBytes: number; htmlGzipBytes: number; jsGzipBytes: number; jsFiles: number }> {
  const page = await rawGet(pageUrl);
  const html = page.body.toString("utf8");
  const seen = new Set<string>();
  const queue = [...html.matchAll(/(?:href|src)="(\/[^"]+\.js)"|import\s*\(?\s*"(\/[^"]+\.js)"/g)].map(
    (match) => match[1] ?? match[2]!,
  );
  let jsGzipBytes = 0;
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const response = await rawGet(new URL(file, pageUrl).href, { "Accept-Encoding": "gzip" });
    if (response.status !== 200) continue;
    jsGzipBytes +=
      response.headers["content-encoding"] === "gzip" ? response.body.length : gzipSync(response.body).length;
    const text = (await rawGet(new URL(file, pageUrl).href)).body.toString("utf8");
    for (const match of text.matchAll(/(?:from|import)\s*"(\.{1,2}\/[^"]+\.js)"/g))
      queue.push(new URL(match[1]!, new URL(file, pageUrl)).pathname);
  }
  return { htmlBytes: page.body.length, htmlGzipBytes: gzipSync(page.body).length, jsGzipBytes, jsFiles: seen.size };
}

interface CrawlResult {
  crawl: Measured;
  stock: Measured;
  cache: { entries: number; bytes: number; hits: number; misses: number } | null;
}

/**
 * Every seeded name once, in random order, with a crawler's headers, on a fresh server whose page cache
 * is on at its default size: nearly every request is a first render. It runs in ROUNDS parts with the
 * stock baseline measured (same headers, same connections) between them, so the ratio is from the same
 * stretch of machine load. The page cache keeps no crawler's first render (page-cache.server.ts): after
 * the crawl, BROWSER_READS of the names are read once each with a browser's headers, and the page cache's
 * own count at shutdown (which then holds those only) gives pages held per MB.
 */
async function crawlRun(stockUrl: string, domainPath: string): Promise<CrawlResult> {
  const names = Array.from({ length: Math.min(CRAWL, DOMAINS) }, (_, index) => generatedDomainName(index));
  for (let i = names.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [names[i], names[j]] = [names[j]!, names[i]!];
  }
  const server = await startApp();
  const perRound = Math.max(2, Math.round(DURATION / ROUNDS));
  const parts: Array<{ requests: number; seconds: number; p50: number; p99: number; errors: number }> = [];
  const stockRounds: Measured[] = [];
  let next = 0;
  for (let round = 0; round < ROUNDS; round += 1) {
    const amount = Math.floor(((round + 1) * names.length) / ROUNDS) - Math.floor((round * names.length) / ROUNDS);
    const result = await autocannon({
      url: server.url,
      connections: CRAWL_CONNECTIONS,
      amount,
      headers: CRAWLER_HEADERS,
      requests: [
        {
          setupRequest: (request: { path: string }) => ({
            ...request,
            path: `/domain/${names[next++ % names.length]!.replace(/\.com$/, "")}`,
          }),
        },
      ],
    });
    parts.push({
      requests: result.requests.total,
      seconds: result.duration,
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: result.errors + result.timeouts + result.non2xx,
    });
    const baseline = await autocannon({
      url: new URL(domainPath, stockUrl).href,
      connections: CRAWL_CONNECTIONS,
      duration: perRound,
      headers: CRAWLER_HEADERS,
    });
    stockRounds.push({
      label: "",
      rps: baseline.requests.average,
      p50: baseline.latency.p50,
      p99: baseline.latency.p99,
      errors: baseline.errors + baseline.timeouts + baseline.non2xx,
    });
  }
  let read = 0;
  await autocannon({
    url: server.url,
    connections: CRAWL_CONNECTIONS,
    amount: Math.min(BROWSER_READS, names.length),
    headers: BROWSER_HEADERS,
    requests: [
      {
        setupRequest: (request: { path: string }) => ({
          ...request,
          path: `/domain/${names[read++ % names.length]!.replace(/\.com$/, "")}`,
        }),
      },
    ],
  });
  await server.stop();
  const cacheLine = server
    .output()
    .split("\n")
    .find((line) => line.includes('"msg":"page cache"'));
  const requests = parts.reduce((sum, part) => sum + part.requests, 0);
  const seconds = parts.reduce((sum, part) => sum + part.seconds, 0);
  return {
    crawl: {
      label: `crawl: ${fmt(requests)} names once each, ${CRAWL_CONNECTIONS} conn.`,
      rps: requests / seconds,
      p50: median(parts.map((part) => part.p50)),
      p99: Math.max(...parts.map((part) => part.p99)),
      errors: parts.reduce((sum, part) => sum + part.errors, 0),
      note: `parts: ${parts.map((part) => fmt(part.requests / part.seconds)).join(" / ")} req/s; p99 is the worst part's`,
    },
    stock: {
      label: `stock baseline, crawler headers, ${CRAWL_CONNECTIONS} conn.`,
      rps: median(stockRounds.map((round) => round.rps)),
      p50: median(stockRounds.map((round) => round.p50)),
      p99: median(stockRounds.map((round) => round.p99)),
      errors: stockRounds.reduce((sum, round) => sum + round.errors, 0),
      note: `rounds: ${stockRounds.map((round) => fmt(round.rps)).join(" / ")}`,
    },
    cache: cacheLine ? (JSON.parse(cacheLine) as CrawlResult["cache"]) : null,
  };
}

function printTable(rows: Measured[], ceiling: Measured, stock: Measured) {
  log(
    `\n${"".padEnd(44)}${"req/s".padStart(9)}${"p50 ms".padStart(9)}${"p99 ms".padStart(9)}${"of ceiling".padStart(12)}${"x stock".padStart(9)}`,
  );
  for (const row of rows) {
    log(
      `${row.label.padEnd(44)}${fmt(row.rps).padStart(9)}${fmt(row.p50).padStart(9)}${fmt(row.p99).padStart(9)}` +
        `${`${fmt((row.rps / ceiling.rps) * 100)}%`.padStart(12)}${`${fmt(row.rps / stock.rps, 1)}x`.padStart(9)}` +
        `${row.errors ? `  (${row.errors} errors/non-2xx)` : ""}${cpuFigure(row)}${row.note ? `  ${row.note}` : ""}`,
    );
  }
}

const HELP = `npm run bench -- [options]
  --duration=N            seconds per measurement, split over the rounds (8)
  --rounds=N              interleaved rounds per target (5)
  --warmup=N              seconds of load per target before its rounds (15)
  --connections=N         autocannon connections (50)
  --domains=N             names seeded (100000)
  --crawl=N               names the crawl asks for (all); --crawl-connections=N (10)
  --subscribers=N         live-fee subscribers (10000)
  --skip-build            reuse existing builds
  --skip-postgres         SQLite only
  --skip-crawl            leave the crawl out
  --skip-filters          leave the home page's filter rows and their query plans out
  --skip-sse              leave the live fee out
  --skip-lighthouse       leave Lighthouse out
  --write-docs            rewrite the table in docs/performance.md from this run`;

async function main() {
  if (flag("help")) {
    log(HELP);
    return;
  }
  if (process.argv.includes("--only=insights")) return benchInsightsAlone();
  const started = Date.now();
  // A doc without its markers is found now, not after the whole run.
  if (flag("write-docs")) replaceFiguresBlock(readFileSync(PERFORMANCE_DOC, "utf8"), "");
  const loadAtStart = os.loadavg()[0]!.toFixed(1);
  const machine = `${os.cpus().length} cores (${os.cpus()[0]?.model ?? "?"}), load average ${loadAtStart} at the start; Node ${process.version}`;
  log(`Benchmark: ${CONNECTIONS} connections, ${DURATION} s per measurement, ${fmt(DOMAINS)} domains; ${machine}`);
  const build = (...args: string[]) =>
    execFileSync(process.execPath, [path.join(root, "node_modules/@react-router/dev/bin.cjs"), "build", ...args], {
      cwd: root,
      stdio: "ignore",
    });
  // --skip-build skips a build only when it exists (a clean checkout has neither).
  if (!flag("skip-build") || !existsSync(path.join(root, "build/server/index.js"))) {
    log("Building the app...");
    build();
  }
  if (!flag("skip-build") || !existsSync(path.join(root, "bench/stock-app/build/server/index.js"))) {
    log("Building the stock React Router app...");
    build("bench/stock-app");
  }
  const postgres = flag("skip-postgres") ? null : await startPostgresServer();
  if (postgres) cleanups.push(postgres.stop);
  log(`Seeding ${fmt(DOMAINS)} domains into ${dataDir}...`);
  const seed = (databaseUrl: string) =>
    execFileSync(process.execPath, ["--import=./scripts/ts-imports.mjs", "scripts/seed-many.ts", String(DOMAINS)], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl, SESSION_SECRET },
      stdio: "inherit",
    });
  seed(sqliteUrl);
  const pgUrl = postgres ? await createBenchDatabase(postgres) : null;
  if (pgUrl) {
    log(`Seeding ${fmt(DOMAINS)} domains into an embedded PostgreSQL...`);
    seed(pgUrl);
  }

  // This process writes too (one domain, later the fee), through the app's own modules.
  process.env.DATABASE_URL = sqliteUrl;
  const app = await startApp();
  const short = "velnora";
  const domainPath = `/domain/${short}`;
  await fetch(new URL("/healthz", app.url));
  // One listed .com name, so /domain/{short} is the product's usual short link.
  const { insertDomain } = await import("../app/server/catalog/domains.server");
  await insertDomain({
    domainName: `${short}.com`,
    askingPriceCents: 2_450_000,
    trackingId: short,
    ownerEmail: "owner@example.test",
  });
  // Imported here, as insertDomain above: the app's database module opens DATABASE_URL when loaded.
  const { addSaleStateNames, SOLD_SHORT, UNDER_OFFER_SHORT } = await import("../bench/sale-states");
  await addSaleStateNames();
  const domainPage = await rawGet(new URL(domainPath, app.url).href);
  if (domainPage.status !== 200) throw new Error(`${domainPath} answered ${domainPage.status}`);
  const bodyFile = path.join(dataDir, "domain-page.html");
  writeFileSync(bodyFile, domainPage.body);
  // The headers of a cached hit (the second request), less those Node writes itself.
  const hit = await rawGet(new URL(domainPath, app.url).href);
  const headersFile = path.join(dataDir, "domain-page-headers.json");
  const { date: _date, connection: _connection, "keep-alive": _keepAlive, ...hitHeaders } = hit.headers;
  writeFileSync(headersFile, JSON.stringify(hitHeaders));

  // Two bare servers: the domain page's whole response (the ceiling the targets use), and its body alone
  // with a content type (the ceiling before 2026-11-24, printed for comparison).
  const startCeiling = (args: string[]) =>
    startProcess(["bench/ceiling-server.mjs", ...args], {
      cwd: root,
      env: {},
      ready: (output) => {
        const port = /"port":(\d+)/.exec(output)?.[1];
        return port ? `http://127.0.0.1:${port}` : null;
      },
    });
  const ceilingServer = await startCeiling([bodyFile, headersFile]);
  running.push(ceilingServer);
  const bodyCeilingServer = await startCeiling([bodyFile]);
  running.push(bodyCeilingServer);
  const stockPort = await freePort();
  const stockServer = await startProcess(
    [path.join(root, "node_modules/@react-router/serve/bin.cjs"), "bench/stock-app/build/server/index.js"],
    {
      cwd: root,
      env: { PORT: String(stockPort), HOST: "127.0.0.1", NODE_ENV: "production" },
      ready: (output) => (output.includes("[react-router-serve]") ? `http://127.0.0.1:${stockPort}` : null),
    },
  );
  running.push(stockServer);
  await waitForHttp(new URL(domainPath, stockServer.url).href);

  // The search timings ask /?q=nova 40 times from one address: lift the per-address search limit.
  const uncachedApp = await startApp({ PAGE_CACHE: "false", SEARCHES_PER_MINUTE: "1000000" });

  // The same on PostgreSQL: a cached and an uncached server, and another process (bench/db-writer.ts)
  // that writes through the app's modules (the short name now, the fee later).
  let pgApps: { app: Running; uncached: Running; writer: Writer; env: Record<string, string> } | null = null;
  if (pgUrl) {
    const env = { DATABASE_URL: pgUrl, SESSION_SECRET };
    const writer = await startWriter(root, env);
    cleanups.push(writer.stop);
    await writer.send(`domain ${short}.com ${short}`);
    await writer.send("sale-states");
    pgApps = {
      app: await startApp(env),
      uncached: await startApp({ ...env, PAGE_CACHE: "false", SEARCHES_PER_MINUTE: "1000000" }),
      writer,
      env,
    };
    const page = await rawGet(new URL(domainPath, pgApps.app.url).href);
    if (page.status !== 200) throw new Error(`${domainPath} on PostgreSQL answered ${page.status}`);
  }
  log("Measuring...");
  // A first render is measured twice: as a browser or crawler asks for it (Accept-Encoding: gzip, br), the
  // target, and with no compression asked (the bare cost of a render), each against the stock app asked
  // the same way.
  const firstRender = (label: string, server: Running): Target[] => [
    {
      label: `${label}, gzip/br`,
      url: new URL(domainPath, server.url).href,
      headers: BROWSER_HEADERS,
      pid: server.process.pid,
    },
    { label, url: new URL(domainPath, server.url).href, pid: server.process.pid },
  ];
  const [ceiling, bodyCeiling, stockBrowser, stock, domain, uncachedBrowser, uncached, ...pgRows] = await interleaved([
    { label: "bare node:http, same response (ceiling)", url: ceilingServer.url },
    { label: "bare node:http, the body alone", url: bodyCeilingServer.url },
    ...firstRender("react-router-serve, stock app", stockServer),
    { label: `${domainPath}`, url: new URL(domainPath, app.url).href },
    ...firstRender(`${domainPath}, page cache off`, uncachedApp),
    ...(pgApps
      ? [
          { label: `${domainPath} [PostgreSQL]`, url: new URL(domainPath, pgApps.app.url).href },
          ...firstRender(`${domainPath}, page cache off [PostgreSQL]`, pgApps.uncached),
        ]
      : []),
  ]);
  const [pgDomain, pgUncachedBrowser, pgUncached] = pgRows as [Measured?, Measured?, Measured?];
  await ceilingServer.stop();
  await bodyCeilingServer.stop();
  const names = Array.from({ length: 2000 }, (_, i) => generatedDomainName(Math.floor((i * DOMAINS) / 2000)));
  const shortName = (name: string) => name.replace(/^www\./, "").replace(/\.com$/, "");
  const spread = await measure(`/domain/* (2,000 names, random)`, app.url, {
    paths: () => `/domain/${shortName(names[Math.floor(Math.random() * names.length)]!)}`,
  });
  const browse = await measure("/ (browse, first page)", new URL("/", app.url).href);
  const cookie = await adminCookie(app.url);
  const admin = cookie
    ? await measure("/admin (signed in, first page)", new URL("/admin", app.url).href, { headers: { Cookie: cookie } })
    : null;
  const pgCookie = pgApps ? await adminCookie(pgApps.app.url) : null;
  const pgAdmin =
    pgApps && pgCookie
      ? await measure("/admin (first page) [PostgreSQL]", new URL("/admin", pgApps.app.url).href, {
          headers: { Cookie: pgCookie },
        })
      : null;

  // Issue 27 item 4: the contact page and a listed domain's own lander against the domain page, taking
  // turns request by request; issue 37: a name under offer and a sold name's page too.
  const comparedPages = (baseUrl: string) =>
    alternatingTimings(
      [
        { url: new URL(domainPath, baseUrl).href },
        { url: new URL(`/contact/${short}`, baseUrl).href },
        { url: new URL("/", baseUrl).href, headers: { Host: `${short}.com` } },
        { url: new URL(`/domain/${UNDER_OFFER_SHORT}`, baseUrl).href },
        { url: new URL(`/domain/${SOLD_SHORT}`, baseUrl).href },
      ],
      COMPARED_PAGE_REQUESTS,
    );
  const [domainTime, contactTime, landerTime, underOfferTime, soldTime] = await comparedPages(uncachedApp.url);
  const serverTimes: Array<[string, Timing | null]> = [
    ["/domain/{short}, page cache off", domainTime],
    ["/contact/{short}, page cache off", contactTime],
    ["lander, page cache off", landerTime],
    ["under offer, page cache off", underOfferTime],
    ["sold, page cache off", soldTime],
    ["/ browse, page cache off", await sequentialTimings(new URL("/", uncachedApp.url).href, 40)],
    ["/?q=nova search, page cache off", await sequentialTimings(new URL("/?q=nova", uncachedApp.url).href, 40)],
    [
      "/admin first page",
      cookie ? await sequentialTimings(new URL("/admin", app.url).href, 40, { Cookie: cookie }) : null,
    ],
    [
      "/admin?q=nova search",
      cookie ? await sequentialTimings(new URL("/admin?q=nova", app.url).href, 40, { Cookie: cookie }) : null,
    ],
  ];
  // The home page's filters (issue 24), uncached, on each engine: a row per representative combination.
  const filterRows = flag("skip-filters") ? [] : BROWSE_ROWS;
  for (const [label, browsePath] of filterRows) {
    serverTimes.push([`filters ${label}`, await sequentialTimings(new URL(browsePath, uncachedApp.url).href, 40)]);
  }
  if (pgApps) {
    for (const [label, browsePath] of filterRows) {
      serverTimes.push([
        `filters ${label} [PostgreSQL]`,
        await sequentialTimings(new URL(browsePath, pgApps.uncached.url).href, 40),
      ]);
    }
  }
  // Portfolio insights (issue 25) on each engine's seeded names plus a year of activity: bench/insights.ts.
  const pgInsights = pgUrl ? [{ engine: "PostgreSQL" as const, url: pgUrl }] : [];
  serverTimes.push(...insightsRows([{ engine: "SQLite", url: sqliteUrl }, ...pgInsights], SESSION_SECRET));
  // The admin's Deals page (issue 37) over 10,000 deals on each engine: bench/deals.ts.
  serverTimes.push(...dealsRows([{ engine: "SQLite", url: sqliteUrl }, ...pgInsights], SESSION_SECRET));
  const browsePlans = (
    flag("skip-filters") ? [] : [["SQLite", sqliteUrl], ...(pgUrl ? [["PostgreSQL", pgUrl]] : [])]
  ).map(([engine, databaseUrl]) => {
    const output = execFileSync(process.execPath, ["--import=./scripts/ts-imports.mjs", "scripts/explain-browse.ts"], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl, SESSION_SECRET },
      encoding: "utf8",
    });
    return [engine!, output] as const;
  });
  if (pgApps) {
    const [pgDomainTime, pgContactTime, pgLanderTime, pgUnderOfferTime, pgSoldTime] = await comparedPages(
      pgApps.uncached.url,
    );
    serverTimes.push(
      ["/domain/{short}, page cache off [PostgreSQL]", pgDomainTime],
      ["/contact/{short}, page cache off [PostgreSQL]", pgContactTime],
      ["lander, page cache off [PostgreSQL]", pgLanderTime],
      ["under offer, page cache off [PostgreSQL]", pgUnderOfferTime],
      ["sold, page cache off [PostgreSQL]", pgSoldTime],
      [
        "/admin first page [PostgreSQL]",
        pgCookie ? await sequentialTimings(new URL("/admin", pgApps.app.url).href, 40, { Cookie: pgCookie }) : null,
      ],
      [
        "/admin?q=nova search [PostgreSQL]",
        pgCookie
          ? await sequentialTimings(new URL("/admin?q=nova", pgApps.app.url).href, 40, { Cookie: pgCookie })
          : null,
      ],
    );
    await pgApps.uncached.stop();
  }
  await uncachedApp.stop();

  if (!flag("skip-crawl"))
    log(
      `Crawl: ${fmt(CRAWL)} names once each in random order, ${CRAWL_CONNECTIONS} connections, on a fresh server (page cache on, default size)...`,
    );
  const crawl = flag("skip-crawl") ? null : await crawlRun(stockServer.url, domainPath);
  await stockServer.stop();

  const weights = await pageWeights(new URL(domainPath, app.url).href);
  // The page as it is now: one rendered while this process's insert was not yet heard of is rendered again
  // (with a new nonce, so a new ETag) once it is (within the content version's bound).
  const etag = (await rawGet(new URL(domainPath, app.url).href)).headers.etag;
  const revisit = etag ? await rawGet(new URL(domainPath, app.url).href, { "If-None-Match": String(etag) }) : null;

  let lighthouse: LighthouseResult = { ok: false, reason: "skipped (--skip-lighthouse)" };
  if (!flag("skip-lighthouse")) {
    log("Running Lighthouse (mobile)...");
    lighthouse = await runLighthouse(new URL(domainPath, app.url).href);
  }

  let sse: SseResult | null = null;
  let pgSse: SseResult | null = null;
  if (!flag("skip-sse")) {
    log(`Opening ${fmt(SUBSCRIBERS)} live-fee subscribers...`);
    // A fresh server process on the same database: its memory before the streams is a clean baseline
    // (the server measured above holds the garbage of the load runs, and a collection during the stream
    // phase made "after minus before" meaningless).
    // Every bench subscriber comes from this one address: lift the per-address limit for it.
    const streamServer = await startApp({
      FEE_STREAM_MAX_PER_ADDRESS: String(SUBSCRIBERS),
      FEE_STREAM_MAX_TOTAL: String(Math.max(SUBSCRIBERS, 10_000)),
    });
    const { setInquiryFee } = await import("../app/server/catalog/settings.server");
    const changes: FeeChange[] = [];
    if (cookie) {
      changes.push({
        label: "set by the admin's fee form",
        cents: 2_468,
        run: async () => {
          const response = await fetch(new URL("/admin", streamServer.url), {
            method: "POST",
            redirect: "manual",
            headers: {
              Cookie: cookie,
              Origin: new URL(streamServer.url).origin,
              "Content-Type": "application/x-www-form-urlencoded",
            },
            body: new URLSearchParams({ intent: "fee", fee: "24.68" }),
          });
          if (response.status >= 400) throw new Error(`the fee form answered ${response.status}`);
        },
      });
    }
    // Written the way scripts/set-fee.ts writes it: by another process, seen by the server's watcher.
    changes.push({ label: "written by another process (set-fee)", cents: 2_345, run: () => setInquiryFee(2_345) });
    sse = await sseLoad({ url: streamServer.url, count: SUBSCRIBERS, serverPid: streamServer.process.pid, changes });
    await streamServer.stop();
    if (pgApps) {
      log(`Opening ${fmt(SUBSCRIBERS)} live-fee subscribers on PostgreSQL...`);
      const pgStreamServer = await startApp({
        ...pgApps.env,
        FEE_STREAM_MAX_PER_ADDRESS: String(SUBSCRIBERS),
        FEE_STREAM_MAX_TOTAL: String(Math.max(SUBSCRIBERS, 10_000)),
      });
      const writer = pgApps.writer;
      const pgChanges: FeeChange[] = [];
      if (pgCookie) {
        // The form is posted to the other PostgreSQL server: the subscribers' server learns it from the database.
        const formServer = pgApps.app.url;
        pgChanges.push({
          label: "set by the admin's fee form on another server",
          cents: 2_468,
          run: async () => {
            const response = await fetch(new URL("/admin", formServer), {
              method: "POST",
              redirect: "manual",
              headers: {
                Cookie: pgCookie,
                Origin: new URL(formServer).origin,
                "Content-Type": "application/x-www-form-urlencoded",
              },
              body: new URLSearchParams({ intent: "fee", fee: "24.68" }),
            });
            if (response.status >= 400) throw new Error(`the fee form answered ${response.status}`);
          },
        });
      }
      pgChanges.push({
        label: "written by another process (as set-fee does)",
        cents: 2_345,
        run: () => writer.send("fee 2345"),
      });
      pgSse = await sseLoad({
        url: pgStreamServer.url,
        count: SUBSCRIBERS,
        serverPid: pgStreamServer.process.pid,
        changes: pgChanges,
      });
      await pgStreamServer.stop();
    }
  }
  const rss = residentBytes(app.process.pid);

  log(
    `\n== Throughput at ${CONNECTIONS} connections (median of ${ROUNDS} interleaved rounds of ${Math.max(2, Math.round(DURATION / ROUNDS))} s; ratios against the baselines of this run) ==`,
  );
  printTable(
    [
      ceiling,
      bodyCeiling,
      stock,
      domain,
      uncached,
      spread,
      browse,
      ...(admin ? [admin] : []),
      ...[pgDomain, pgUncached, pgAdmin].filter((row) => row != null),
    ],
    ceiling,
    stock,
  );
  log(`\nAs a browser asks (${BROWSER_HEADERS["Accept-Encoding"]}): ratios against the stock app asked the same way`);
  printTable(
    [stockBrowser, uncachedBrowser, ...[pgUncachedBrowser].filter((row) => row != null)],
    ceiling,
    stockBrowser,
  );
  if (pgApps)
    log(
      "[PostgreSQL]: the same seeded names in an embedded PostgreSQL 18 on this machine (fsync off), measured in the same rounds",
    );
  if (!admin) log("/admin: not measured (no admin login form on this build)");

  const pagesPerMb =
    crawl?.cache && crawl.cache.bytes > 0 ? crawl.cache.entries / (crawl.cache.bytes / 1024 / 1024) : NaN;
  if (crawl) {
    log(
      `\n== Crawl (crawler headers: gzip/br, Googlebot user agent; ratio against the stock app with the same headers, measured between the parts) ==`,
    );
    printTable([crawl.stock, crawl.crawl], ceiling, crawl.stock);
    log(
      crawl.cache
        ? `page cache after the crawl and ${fmt(BROWSER_READS)} names read once by browsers: ${fmt(crawl.cache.entries)} pages in ${fmt(crawl.cache.bytes / 1024 / 1024, 1)} MB (${fmt(pagesPerMb)} pages per MB), ${fmt(crawl.cache.hits)} hits, ${fmt(crawl.cache.misses)} misses`
        : "page cache after the crawl: not reported",
    );
  }

  log("\n== Server time, one request at a time over loopback (p50 / p95) ==");
  for (const [label, timing] of serverTimes) {
    log(
      `${label.padEnd(48)}${timing ? `${fmt(timing.p50, 1)} ms / ${fmt(timing.p95, 1)} ms${timing.status !== 200 ? ` (status ${timing.status})` : ""}` : "not measured (no /admin on this build)"}`,
    );
  }

  for (const [engine, plans] of browsePlans) log(`\n== Query plans of the filters [${engine}] ==\n${plans.trimEnd()}`);

  log("\n== Page weight of /domain/{short} ==");
  log(
    `HTML ${kb(weights.htmlBytes)} (${kb(weights.htmlGzipBytes)} gzipped); JavaScript ${kb(weights.jsGzipBytes)} gzipped in ${weights.jsFiles} files`,
  );
  log(`Repeat visit with If-None-Match: ${revisit ? `${revisit.status}` : "no ETag sent"}`);

  for (const [engine, result] of [
    ["SQLite", sse],
    ["PostgreSQL", pgSse],
  ] as const) {
    if (!result) continue;
    log(`\n== Live fee [${engine}] ==`);
    log(
      `${fmt(result.connected)} of ${fmt(result.subscribers)} subscribers connected in ${result.connectSeconds.toFixed(1)} s; ` +
        `${result.bytesPerSubscriber === null ? "memory n/a" : result.bytesPerSubscriber <= 0 ? "server memory per subscriber not measurable in this run (a garbage collection shrank the process meanwhile)" : `${kb(result.bytesPerSubscriber)} server memory per subscriber`}`,
    );
    for (const change of result.changes) {
      log(
        `fee ${change.label}: reached ${fmt(change.reached)} subscribers, ${fmt(change.reachedWithin1s)} within 1 s; slowest ${fmt(change.slowestMs)} ms`,
      );
    }
  }

  log("\n== Lighthouse, /domain/{short}, mobile ==");
  if (lighthouse.ok) {
    log(
      Object.entries(lighthouse.scores)
        .map(([id, score]) => `${id} ${score}`)
        .join(", "),
    );
    log(
      Object.entries(lighthouse.metrics)
        .map(([id, value]) => `${id} ${value}`)
        .join(", "),
    );
    if (lighthouse.failing.length) log(`below 0.9: ${lighthouse.failing.join("; ")}`);
  } else {
    log(`not run: ${lighthouse.reason}`);
  }

  const rows = resultRows({
    ceiling,
    bodyCeiling,
    stock,
    stockBrowser,
    domain,
    uncached,
    uncachedBrowser,
    pgDomain,
    pgUncached,
    pgUncachedBrowser,
    spread,
    browse,
    crawl,
    pagesPerMb,
    serverTimes,
    browsePlans,
    weights,
    revisit: revisit?.status ?? null,
    sse,
    pgSse,
    lighthouse,
  });
  log(
    `\nServer resident memory at the end: ${rss === null ? "n/a" : `${fmt(rss / 1024 / 1024)} MB`}; bench took ${Math.round((Date.now() - started) / 1000)} s`,
  );
  const startedAt = new Date(started).toISOString();
  const options = process.argv.slice(2);
  const figuresRun = {
    date: `${startedAt.slice(0, 10)} ${startedAt.slice(11, 16)} UTC`,
    command: ["npm run bench", ...(options.length > 0 ? ["--", ...options] : [])].join(" "),
    machine:
      `${fmt(DOMAINS)} domains, ${CONNECTIONS} connections, ${ROUNDS} round${ROUNDS === 1 ? "" : "s"}; ` + machine,
    rows,
  };
  log("\n== Results: targets of this run (ratios from the same rounds) ==\n");
  log(renderFiguresTable(figuresRun));
  if (!flag("write-docs")) return;
  writeFiguresToDoc(PERFORMANCE_DOC, figuresRun);
  log("docs/performance.md: figures table rewritten");
}

/** The run's one table: a row per measurement, SQLite and PostgreSQL side by side, each against its target. */
function resultRows(run: {
  ceiling: Measured;
  bodyCeiling: Measured;
  stock: Measured;
  stockBrowser: Measured;
  domain: Measured;
  uncached: Measured;
  uncachedBrowser: Measured;
  pgDomain?: Measured;
  pgUncached?: Measured;
  pgUncachedBrowser?: Measured;
  spread: Measured;
  browse: Measured;
  crawl: CrawlResult | null;
  pagesPerMb: number;
  serverTimes: Array<[string, Timing | null]>;
  browsePlans: ReadonlyArray<readonly [string, string]>;
  weights: { htmlBytes: number; htmlGzipBytes: number; jsGzipBytes: number };
  revisit: number | null;
  sse: SseResult | null;
  pgSse: SseResult | null;
  lighthouse: LighthouseResult;
}): BenchRow[] {
  const { ceiling, bodyCeiling, stock, stockBrowser, domain, uncached, uncachedBrowser } = run;
  const { pgDomain, pgUncached, pgUncachedBrowser } = run;
  const pg = " [PostgreSQL]";
  const times = new Map(run.serverTimes);
  const xStock = (row: Measured) => row.rps / stock.rps;
  const ofCeiling = (row: Measured) => row.rps / ceiling.rps;
  const rate = (row: Measured) => `${fmt(row.rps)} req/s, ${fmt(xStock(row), 1)}x stock`;
  const p50 = (timing: Timing | null) =>
    timing ? `p50 ${fmt(timing.p50, 1)} ms, p95 ${fmt(timing.p95, 1)} ms` : "n/a";
  const timed = (label: string, met: (timing: Timing) => boolean) => {
    const timing = times.get(label);
    return timing === undefined ? undefined : { figure: p50(timing), met: timing ? met(timing) : false };
  };
  const cachedMet = (row: Measured) => ofCeiling(row) >= 0.7 && xStock(row) >= 20 && row.p99 < 10;
  const cachedFigure = (row: Measured) =>
    `${rate(row)}, ${fmt(ofCeiling(row) * 100)}% of bare (${fmt((row.rps / bodyCeiling.rps) * 100)}% of the body alone); ` +
    `p99 ${fmt(row.p99)} ms`;
  const browserFigure = (row: Measured) =>
    `${fmt(row.rps)} req/s, ${fmt(row.rps / stockBrowser.rps, 1)}x stock${cpuFigure(row)}`;
  const uncachedFigure = (row: Measured, label: string) =>
    `${rate(row)}${cpuFigure(row)}; server time p50 ${times.get(label) ? fmt(times.get(label)!.p50, 1) : "n/a"} ms`;
  const rows: BenchRow[] = [
    {
      measurement: "bare `node:http`, the same bytes: the page's headers and body (ceiling)",
      sqlite: { figure: `${fmt(ceiling.rps)} req/s` },
    },
    {
      measurement: "bare `node:http`, the page's body alone (for comparison)",
      sqlite: { figure: `${fmt(bodyCeiling.rps)} req/s` },
    },
    {
      measurement: "stock `react-router-serve` app (baseline)",
      sqlite: {
        figure: `as a browser asks (gzip, br): ${fmt(stockBrowser.rps)} req/s${cpuFigure(stockBrowser)}; no compression asked: ${fmt(stock.rps)} req/s${cpuFigure(stock)}`,
      },
    },
    {
      measurement: "`/domain/{short}`, cached, request logs on",
      target: ">= 70% of bare, >= 20x stock, p99 < 10 ms; PostgreSQL within 10% of SQLite",
      sqlite: { figure: cachedFigure(domain), met: cachedMet(domain) },
      postgres: pgDomain && {
        figure: `${cachedFigure(pgDomain)}; ${fmt((pgDomain.rps / domain.rps) * 100)}% of SQLite`,
        met: cachedMet(pgDomain) && pgDomain.rps >= 0.9 * domain.rps,
      },
    },
    {
      measurement: "`/domain/{short}`, page cache off, as a browser asks (gzip, br)",
      target: ">= 1x stock asked the same way (a first render); PostgreSQL within 10% of SQLite",
      sqlite: { figure: browserFigure(uncachedBrowser), met: uncachedBrowser.rps >= stockBrowser.rps },
      postgres: pgUncachedBrowser && {
        figure: `${browserFigure(pgUncachedBrowser)}; ${fmt((pgUncachedBrowser.rps / uncachedBrowser.rps) * 100)}% of SQLite`,
        met: pgUncachedBrowser.rps >= 0.9 * uncachedBrowser.rps,
      },
    },
    {
      measurement: "`/domain/{short}`, page cache off, no compression asked (the render alone)",
      sqlite: { figure: uncachedFigure(uncached, "/domain/{short}, page cache off") },
      postgres: pgUncached && {
        figure: `${uncachedFigure(pgUncached, `/domain/{short}, page cache off${pg}`)}; ${fmt((pgUncached.rps / uncached.rps) * 100)}% of SQLite`,
      },
    },
  ];
  // "The same speed as the domain page": server time, one request at a time, against the domain page's.
  for (const [label, measurement] of [
    ["/contact/{short}, page cache off", "`/contact/{short}`, uncached, server time"],
    ["lander, page cache off", "lander: `/` on a listed domain's own host, uncached, server time"],
    ["under offer, page cache off", 'a name "Under offer" (`/domain/{short}`), uncached, server time'],
    ["sold, page cache off", "a sold name's page (`/domain/{short}`), uncached, server time"],
  ] as const) {
    const against = (suffix: string) => times.get(`/domain/{short}, page cache off${suffix}`);
    const near = (suffix: string) => (timing: Timing) =>
      timing.status === 200 && timing.p50 <= 1.1 * (against(suffix)?.p50 ?? 0);
    rows.push({
      measurement,
      target: "p50 within 10% of the uncached domain page's",
      sqlite: timed(label, near("")),
      postgres: timed(`${label}${pg}`, near(pg)),
    });
  }
  rows.push(
    { measurement: "`/domain/*`, 2,000 names at random", sqlite: { figure: rate(run.spread) } },
    { measurement: "`/` browse, first page, cached", sqlite: { figure: rate(run.browse) } },
    {
      measurement: "`/` browse, uncached, server time",
      sqlite: { figure: p50(times.get("/ browse, page cache off") ?? null) },
    },
    {
      measurement: "`/?q=nova` search, uncached, server time",
      sqlite: { figure: p50(times.get("/?q=nova search, page cache off") ?? null) },
    },
  );
  if (run.crawl) {
    const { crawl, stock: crawlStock } = run.crawl;
    rows.push(
      {
        measurement: `crawl: ${fmt(Math.min(CRAWL, DOMAINS))} names once each, crawler headers`,
        target: ">= 1x stock (first renders), p99 < 100 ms",
        sqlite: {
          figure: `${fmt(crawl.rps)} req/s, ${fmt(crawl.rps / crawlStock.rps, 1)}x stock; p99 ${fmt(crawl.p99)} ms`,
          met: crawl.rps >= crawlStock.rps && crawl.p99 < 100,
        },
      },
      {
        measurement: `page cache after the crawl (which it does not keep) and ${fmt(BROWSER_READS)} names read by browsers`,
        sqlite: { figure: `${fmt(run.pagesPerMb)} domain pages per MB` },
      },
    );
  }
  for (const [label, measurement] of [
    ["/admin first page", "`/admin` first page, server time"],
    ["/admin?q=nova search", "`/admin?q=nova` search over every name, server time"],
  ] as const) {
    rows.push({
      measurement,
      target: "p50 < 50 ms",
      sqlite: timed(label, (timing) => timing.p50 < 50),
      postgres: timed(`${label}${pg}`, (timing) => timing.p50 < 50),
    });
  }
  for (const [label] of run.serverTimes.filter(([label]) => label.startsWith("filters ") && !label.endsWith(pg))) {
    rows.push({
      measurement: `${label.slice("filters ".length)}, uncached, server time`,
      target: "p95 < 30 ms",
      sqlite: timed(label, (timing) => timing.p95 < 30 && timing.status === 200),
      postgres: timed(`${label}${pg}`, (timing) => timing.p95 < 30 && timing.status === 200),
    });
  }
  for (const [label] of run.serverTimes.filter(([label]) => label.startsWith("insights, ") && !label.endsWith(pg))) {
    rows.push({
      measurement: `${label} (${fmt(DOMAINS)} names, a year of views), server time`,
      target: `p95 < ${INSIGHTS_TARGET_MS} ms`,
      sqlite: timed(label, (timing) => timing.p95 < INSIGHTS_TARGET_MS),
      postgres: timed(`${label}${pg}`, (timing) => timing.p95 < INSIGHTS_TARGET_MS),
    });
  }
  for (const [label] of run.serverTimes.filter(([label]) => label.startsWith("/admin/deals") && !label.endsWith(pg))) {
    rows.push({
      measurement: `${label} (first page and owed to owners), server time`,
      target: `p50 < ${DEALS_TARGET_MS} ms`,
      sqlite: timed(label, (timing) => timing.p50 < DEALS_TARGET_MS),
      postgres: timed(`${label}${pg}`, (timing) => timing.p50 < DEALS_TARGET_MS),
    });
  }
  if (run.browsePlans.length > 0) {
    const plans = new Map(run.browsePlans);
    const indexed = (engine: string) =>
      plans.has(engine)
        ? {
            figure: plans.get(engine)!.includes("every statement uses an index") ? "yes" : "no",
            met: plans.get(engine)!.includes("every statement uses an index"),
          }
        : undefined;
    rows.push({
      measurement: "every filter statement uses an index",
      target: "yes",
      sqlite: indexed("SQLite"),
      postgres: indexed("PostgreSQL"),
    });
  }
  const { weights } = run;
  rows.push(
    {
      measurement: "domain page weight",
      target: "HTML < 20 KB, JavaScript < 120 KB gzipped",
      sqlite: {
        figure: `HTML ${kb(weights.htmlBytes)} (${kb(weights.htmlGzipBytes)} gzip), JS ${kb(weights.jsGzipBytes)} gzip`,
        met: weights.htmlBytes < 20 * 1024 && weights.jsGzipBytes < 120 * 1024,
      },
    },
    {
      measurement: "repeat visit (If-None-Match)",
      target: "304",
      sqlite: { figure: `${run.revisit ?? "no ETag"}`, met: run.revisit === 304 },
    },
  );
  const fee = (result: SseResult | null) => {
    if (!result) return undefined;
    const bytes = result.bytesPerSubscriber;
    const each = bytes && bytes > 0 ? `; ${kb(bytes)} of server memory each` : "";
    return {
      figure:
        result.changes.map((change) => `fee ${change.label}: all reached in ${fmt(change.slowestMs)} ms`).join("; ") +
        each,
      met: result.changes.every((change) => change.reachedAll && change.slowestMs <= 1000),
    };
  };
  if (run.sse || run.pgSse)
    rows.push({
      measurement: `live fee, ${fmt(SUBSCRIBERS)} subscribers`,
      target: "all within 1 s",
      sqlite: fee(run.sse),
      postgres: fee(run.pgSse),
    });
  if (run.lighthouse.ok) {
    const scores = run.lighthouse.scores;
    rows.push({
      measurement: "Lighthouse, domain page, mobile",
      target: ">= 95 in each category",
      sqlite: {
        figure: Object.entries(scores)
          .map(([id, score]) => `${id} ${score}`)
          .join(", "),
        met: Object.values(scores).every((score) => score >= 95),
      },
    });
  }
  return rows;
}

/** A database of its own on the embedded server, once the server is up. */
async function createBenchDatabase(server: PostgresServer): Promise<string> {
  await server.ready;
  const client = new pg.Client({ connectionString: server.url });
  await client.connect();
  try {
    await client.query("CREATE DATABASE bench");
  } finally {
    await client.end();
  }
  const url = new URL(server.url);
  url.pathname = "/bench";
  return url.toString();
}

try {
  await main();
} finally {
  for (const server of running) await server.stop();
  for (const cleanup of cleanups.reverse()) await cleanup();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(0);
