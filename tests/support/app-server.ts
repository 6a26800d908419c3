import Database from "better-sqlite3";
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { requestOnNewConnection } from "./new-connection";
import { createTestDatabase } from "./postgres";
import { openPostgresSync } from "./postgres-sync";
import { waitFor } from "./wait";

const projectRoot = path.resolve(import.meta.dirname, "../..");
const tsImports = path.join(projectRoot, "scripts/ts-imports.mjs");
/**
 * Node's compile cache for the servers and scripts the tests start (NODE_COMPILE_CACHE): the code of the
 * build, node_modules and server.ts's stripped types are compiled once for the run instead of at every
 * start (a start of the built server took about a quarter less here). Node keys each entry on
 * the file's content and its own version, so a new build or Node never reads a stale entry.
 */
const compileCache = path.join(tmpdir(), "domainvault-compile-cache");

export interface AppServer {
  url: string;
  /**
   * The Origin a browser on this site sends: https when PUBLIC_URL is https (the server then counts
   * every request as having come through a TLS proxy), with the test server's own host.
   */
  origin: string;
  dataDir: string;
  dbPath: string;
  /** Which engine the server runs on (StartOptions.database). */
  database: TestDatabase;
  env: Record<string, string>;
  process: ChildProcess;
  /** Everything the server printed, for assertions on logs and for failure messages. */
  output: () => string;
  /**
   * A real connection to the server's database, for test setup and checks: the SQLite file, or on
   * PostgreSQL a synchronous stand-in with the same API (tests/support/postgres-sync.ts).
   */
  db: () => Database.Database;
  /**
   * Waits until the server has heard of the writes the test made through db() since the last wait (only
   * on PostgreSQL, where another process's write reaches the server's memory by a notification, a few
   * milliseconds later; on SQLite the next request sees it). The HTTP helpers call it before each request.
   */
  settle: () => Promise<void>;
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
}

export type TestDatabase = "sqlite" | "postgres";

/**
 * PASSWORD_HASH_COST for test servers: a small scrypt (1 MiB, milliseconds) for the many sign-ins. The
 * tests about what the real cost does pass REAL_PASSWORD_HASH_COST, the production default.
 */
export const TEST_PASSWORD_HASH_COST = "10";
export const REAL_PASSWORD_HASH_COST = "17";

export interface StartOptions {
  env?: Record<string, string>;
  /**
   * The engine: a SQLite file in the data folder (the default), or with "postgres" (or TEST_DATABASE=postgres)
   * a database of its own on the test run's PostgreSQL (tests/support/postgres.ts). A restart on the same
   * data folder reuses the same database.
   */
  database?: TestDatabase;
  /** Reuse a data folder (to restart a server on the same database). */
  dataDir?: string;
  timeoutMs?: number;
  /** The server's working directory (where it looks for `.env`); the project root by default. */
  cwd?: string;
  /**
   * `npm run dev`'s server instead of the build: server.ts from source (Node's type stripping) with NODE_ENV=development,
   * Vite in middleware mode serving the app.
   */
  development?: boolean;
}

/** Starts the built production server (`node server.ts`) on a free port with its own database. */
export async function startAppServer(options: StartOptions = {}): Promise<AppServer> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), "domains-test-"));
  const dbPath = path.join(dataDir, "app.db");
  const database = options.database ?? (process.env.TEST_DATABASE === "postgres" ? "postgres" : "sqlite");
  const env: Record<string, string> = {
    PORT: "0",
    ...(database === "postgres" ? await postgresEnv(dataDir) : { DATABASE_URL: `file:${dbPath}` }),
    SEED_DEMO: "true",
    LOG_REQUESTS: "false",
    NODE_ENV: options.development ? "development" : "production",
    ENV_FILE: "/dev/null",
    PASSWORD_HASH_COST: TEST_PASSWORD_HASH_COST,
    ...options.env,
  };
  // The server as operators run it (`node server.ts` on the build): one process, so a signal, SIGKILL
  // included, reaches the server itself. The absolute path keeps the command line apart from a
  // developer's own server. ENV_FILE: a developer's .env must not leak into the tests. Development is
  // `npm run dev`'s command, run from the project root: NODE_ENV=development, and the "development"
  // condition, so the packages Node loads (@react-router/express) and those Vite loads share one React Router.
  const args = [...(options.development ? ["--conditions=development"] : []), path.join(projectRoot, "server.ts")];
  const child = spawn(process.execPath, args, {
    cwd: options.cwd ?? projectRoot,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NODE_COMPILE_CACHE: compileCache, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      // Never leave a half-started server running after the test gave up on it.
      child.kill("SIGKILL");
      reject(new Error(`server did not start:\n${output}`));
    }, options.timeoutMs ?? 60_000);
    const onData = () => {
      const match = /"url":"([^"]+)"[^\n]*"msg":"listening"/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!.replace("localhost", "127.0.0.1"));
      }
    };
    child.stdout!.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });

  let connection: Database.Database | undefined;
  let unheardWrites = false;
  const origin = env.PUBLIC_URL?.startsWith("https://") ? `https://${new URL(url).host}` : new URL(url).origin;
  const server: AppServer = {
    url,
    origin,
    dataDir,
    dbPath,
    database,
    env,
    process: child,
    output: () => output,
    db: () => {
      if (!connection && database === "postgres") {
        connection = openPostgresSync(env.DATABASE_URL!, () => (unheardWrites = true));
      }
      if (!connection) {
        connection = new Database(dbPath);
        connection.pragma("busy_timeout = 5000");
      }
      return connection;
    },
    settle: async () => {
      if (!unheardWrites) return;
      unheardWrites = false;
      await untilHeard(server);
    },
    stop: (signal = "SIGTERM") =>
      new Promise((resolve) => {
        connection?.close();
        connection = undefined;
        // Already gone (exited, or killed by a signal: then exitCode stays null and signalCode is set).
        if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
        child.once("exit", (code) => resolve(code));
        child.kill(signal);
      }),
  };
  runningAt.set(url, server);
  child.once("exit", () => runningAt.delete(url));
  return server;
}

/**
 * Another server on `server`'s database (the same data folder and engine, the same settings plus `env`)
 * whose clock runs `offsetMs` ahead for its whole life (TEST_CLOCK_OFFSET_MS): the app as it answers at
 * that later time, beside the first one. A server's clock never moves while it runs.
 */
export function startServerAt(
  server: AppServer,
  offsetMs: number,
  env: Record<string, string> = {},
): Promise<AppServer> {
  return startAppServer({
    dataDir: server.dataDir,
    database: server.database,
    env: { ...server.env, PORT: "0", TEST_CLOCK_OFFSET_MS: String(offsetMs), ...env },
  });
}

/**
 * Stops `server` and starts it again on the same port and database with its clock `offsetMs` ahead (0: the
 * real time), in place: the same object then speaks for the new process, so a page already open in a
 * browser posts to the restarted server (a form filled before a deadline, sent after it).
 */
export async function restartAt(server: AppServer, offsetMs: number): Promise<void> {
  await server.stop();
  const restarted = await startAppServer({
    dataDir: server.dataDir,
    database: server.database,
    env: { ...server.env, PORT: new URL(server.url).port, TEST_CLOCK_OFFSET_MS: String(offsetMs) },
  });
  Object.assign(server, restarted);
}

/** The servers this test process started, by their URL: for helpers given only the URL. */
const runningAt = new Map<string, AppServer>();

/** AppServer.settle for the server at `url`, when this process started it. */
export async function settleServerAt(url: string): Promise<void> {
  await runningAt.get(url)?.settle();
}

/**
 * Waits until the server has heard of every write made to its database so far (a test's own writes come
 * from another process: the server's memory of the content version follows within its bound, under a
 * second; db/content-version.server.ts), so what the test asserts next is not about that delay.
 */
export async function untilHeard(app: Pick<AppServer, "url" | "db">, timeoutMs = 5_000): Promise<void> {
  const row = app.db().prepare("SELECT version FROM content_version").get() as { version: number | string };
  const written = Number(row.version);
  const heard = async () => {
    // A connection of its own: a test that has just blocked its event loop (a large synchronous insert)
    // may hold a pooled keep-alive socket the server closed meanwhile, its FIN not yet read, and fetch
    // would send on it ("other side closed"). Waiting here also lets the loop read that FIN, so the
    // test's next fetch does not pick the dead socket either.
    const reply = await requestOnNewConnection(app.url, "/healthz", new URL(app.url).host);
    const health = JSON.parse(reply.body) as { contentVersion?: { version: number } };
    return Number(health.contentVersion?.version) >= written;
  };
  await waitFor(heard, timeoutMs, "the server to hear of the test's writes", 20);
}

/**
 * DATABASE_URL, SESSION_SECRET (required with PostgreSQL) and DATA_DIR for a server on PostgreSQL, kept
 * per data folder for the test process, so a restart on the same folder finds the same database and
 * secret (and a folder the server is to make itself stays untouched).
 */
const postgresSettings = new Map<string, Record<string, string>>();
async function postgresEnv(dataDir: string): Promise<Record<string, string>> {
  let settings = postgresSettings.get(dataDir);
  if (!settings) {
    settings = { DATABASE_URL: await createTestDatabase(), SESSION_SECRET: randomBytes(24).toString("hex") };
    postgresSettings.set(dataDir, settings);
  }
  return { ...settings, DATA_DIR: dataDir };
}

export function removeDataDir(server: AppServer): void {
  rmSync(server.dataDir, { recursive: true, force: true });
}

/** Runs a project script (`node --import=./scripts/ts-imports.mjs scripts/<name>.ts`) against a server's database. */
export function runScript(
  server: Pick<AppServer, "env">,
  script: string,
  args: string[] = [],
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [`--import=${tsImports}`, path.join("scripts", script), ...args], {
      cwd: projectRoot,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        NODE_COMPILE_CACHE: compileCache,
        ...server.env,
      },
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("exit", (code) => resolve({ code, output }));
  });
}
