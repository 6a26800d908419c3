// Process and HTTP helpers for scripts/bench.ts.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";

export interface Running {
  url: string;
  process: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
}

/** Starts a node process and waits until `ready(output)` finds the URL it listens on. */
export function startProcess(
  args: string[],
  options: { cwd: string; env: Record<string, string>; ready: (output: string) => string | null; timeoutMs?: number },
): Promise<Running> {
  const child = spawn(process.execPath, args, {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  let tail = "";
  let listening = false;
  const onData = (chunk: Buffer) => {
    // Keep reading (a full pipe would stall the server) but keep only the start-up text and the last
    // lines (with request logs on, what it says at shutdown comes after every request's line).
    if (!listening || output.length < 20_000) output += chunk;
    else tail = (tail + chunk).slice(-20_000);
  };
  child.stdout!.on("data", onData);
  child.stderr!.on("data", onData);
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const force = setTimeout(() => child.kill("SIGKILL"), 15_000);
      child.once("exit", () => {
        clearTimeout(force);
        resolve();
      });
      child.kill("SIGTERM");
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`${args.join(" ")} did not start:\n${output}`));
    }, options.timeoutMs ?? 60_000);
    // Until it is listening: afterwards its output (request logs) is only kept, not searched.
    const check = () => {
      if (listening) return;
      const url = options.ready(output);
      if (!url) return;
      listening = true;
      clearTimeout(timer);
      resolve({ url, process: child, output: () => output + tail, stop });
    };
    child.stdout!.on("data", check);
    child.stderr!.on("data", check);
    child.once("exit", (code) => {
      clearTimeout(timer);
      if (!listening) reject(new Error(`${args.join(" ")} exited with ${code}:\n${output}`));
    });
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function waitForHttp(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/** A GET with node:http, so compressed bodies are counted as sent (fetch would decompress them). */
export function rawGet(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
        );
        response.on("error", reject);
      })
      .on("error", reject);
  });
}

/** Resident memory of a process in bytes (Linux), or null elsewhere. */
export function residentBytes(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Linux's USER_HZ: /proc counts CPU time in hundredths of a second. */
const CLOCK_TICKS = 100;

/** CPU seconds (user and system) a process has used so far, from /proc; null where there is none. */
export function cpuSeconds(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

export function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!;
}

/** Server time as one client sees it on loopback (the last response's status with it). */
export interface Timing {
  p50: number;
  p95: number;
  status: number;
}

interface TimedRequest {
  url: string;
  headers?: Record<string, string>;
}

/**
 * Time to the last byte of `count` of each request, made one at a time with node:http (a keep-alive agent
 * per request, like a browser), after 3 warm-up rounds. The requests take turns request by request: pages
 * compared with each other meet the same moments of the machine's load. node:http, not fetch: reading a
 * streamed 100 KB page through fetch's web streams added about 12 ms of client time to each request.
 */
export async function alternatingTimings<const Requests extends readonly TimedRequest[]>(
  requests: Requests,
  count: number,
): Promise<{ [Index in keyof Requests]: Timing }> {
  const agents = requests.map(() => new http.Agent({ keepAlive: true, maxSockets: 1 }));
  const get = (index: number) =>
    new Promise<number>((resolve, reject) => {
      const { url, headers = {} } = requests[index]!;
      http
        .get(url, { headers, agent: agents[index] }, (response) => {
          response.on("data", () => {});
          response.on("end", () => resolve(response.statusCode ?? 0));
          response.on("error", reject);
        })
        .on("error", reject);
    });
  const statuses = requests.map(() => 0);
  const times: number[][] = requests.map(() => []);
  for (let i = 0; i < 3; i += 1) for (const index of requests.keys()) await get(index);
  for (let i = 0; i < count; i += 1) {
    for (const index of requests.keys()) {
      const started = performance.now();
      statuses[index] = await get(index);
      times[index]!.push(performance.now() - started);
    }
  }
  for (const agent of agents) agent.destroy();
  return times.map((list, index) => timingOf(list, statuses[index]!)) as { [Index in keyof Requests]: Timing };
}

/** Server time of one request, `count` times, one at a time. */
export async function sequentialTimings(
  url: string,
  count: number,
  headers: Record<string, string> = {},
): Promise<Timing> {
  const [timing] = await alternatingTimings([{ url, headers }], count);
  return timing;
}

/** A server function's own time (no HTTP): 3 warm-up calls, then `count` one after another. */
export async function timedCalls(work: () => Promise<unknown>, count = 40): Promise<Timing> {
  for (let i = 0; i < 3; i += 1) await work();
  const times: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  return timingOf(times, 200);
}

/** p50 and p95 of `times` (sorted here), the percentiles of every row of the bench's table. */
function timingOf(times: number[], status: number): Timing {
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p95: percentile(times, 0.95), status };
}

/**
 * Runs `node bench/<script> --measure` on one database and returns the JSON of its last line. A child per
 * database: the app's database module opens DATABASE_URL when it is imported.
 */
export function measureInChild<Result>(script: string, databaseUrl: string, sessionSecret: string): Result {
  const output = execFileSync(process.execPath, ["--import=./scripts/ts-imports.mjs", script, "--measure"], {
    cwd: path.resolve(import.meta.dirname, ".."),
    env: { ...process.env, DATABASE_URL: databaseUrl, SESSION_SECRET: sessionSecret, LOG_LEVEL: "error" },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  return JSON.parse(output.trim().split("\n").pop()!) as Result;
}

export interface Writer {
  send: (command: string) => Promise<void>;
  stop: () => Promise<void>;
}

/** Starts bench/db-writer.ts on the database at `databaseUrl`: another process writing through the app's modules. */
export function startWriter(cwd: string, env: Record<string, string>): Promise<Writer> {
  const child = spawn(process.execPath, ["--import=./scripts/ts-imports.mjs", "bench/db-writer.ts"], {
    cwd,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let errors = "";
  child.stderr!.on("data", (chunk: Buffer) => (errors += chunk));
  const waiting: Array<(line: string) => void> = [];
  let buffered = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    buffered += chunk;
    let newline: number;
    while ((newline = buffered.indexOf("\n")) >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      waiting.shift()?.(line);
    }
  });
  const next = () =>
    new Promise<string>((resolve, reject) => {
      waiting.push(resolve);
      child.once("exit", (code) => reject(new Error(`bench/db-writer.ts exited with ${code}:\n${errors}`)));
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.stdin!.end();
    });
  return next().then(() => ({
    send: async (command: string) => {
      const answer = next();
      child.stdin!.write(`${command}\n`);
      const line = await answer;
      if (line !== "ok") throw new Error(`bench/db-writer.ts: ${command}: ${line}`);
    },
    stop,
  }));
}
