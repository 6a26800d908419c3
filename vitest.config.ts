import { availableParallelism } from "node:os";
import { defineConfig, type Plugin } from "vitest/config";

/**
 * The in-process projects render pages without React Router's Vite plugin or Tailwind: the stylesheet
 * app/root.tsx links gets a URL of its own (React refuses an empty one), as the build gives it one.
 */
const stylesheetUrl: Plugin = {
  name: "in-process-stylesheet-url",
  enforce: "pre",
  resolveId: (id) => (id.endsWith(".css?url") ? `\0stylesheet-url:${id}` : undefined),
  load: (id) => (id.startsWith("\0stylesheet-url:") ? 'export default "/assets/app.css";' : undefined),
};

/**
 * The integration files the project integration-postgres leaves out: each runs once, in the project
 * integration (which starts its servers on SQLite unless a test asks for PostgreSQL itself). Every other
 * file runs on both engines. A file belongs here only when nothing it asserts goes through code that
 * differs by engine (app/server/db/: the SQL dialect, transactions and locks, LISTEN/NOTIFY or
 * data_version, the content version, compiled-once reads; the rate-limit store, memory on SQLite and the
 * database on PostgreSQL; NUL stripping); when in doubt a file stays on both.
 */
const SQLITE_ONLY = [
  // `npm run backup` copies the SQLite file (its PostgreSQL refusal is asserted here too).
  "backup.test.ts",
  // Another SQLite connection holds the write lock: busy_timeout and its 503.
  "faults-db-busy.test.ts",
  // Lands a fee change between two reads with SQLite's write lock; PostgreSQL's reads do not wait.
  "fee-change-race.test.ts",
  // Reads the SQLite file at start (planner statistics, the session secret file, a file that is not
  // SQLite); the configuration it validates fails before the database opens.
  "startup.test.ts",
  // readAtOnce on a SQLite connection, in the test's process.
  "read-at-once.test.ts",
];

const POSTGRES_ALREADY = [
  // Each starts its PostgreSQL servers or databases itself, whatever the project.
  "migrate-to-postgres.test.ts",
  "postgres-migrations.test.ts",
  "cluster.test.ts",
  "prepared-statements.test.ts",
];

const SAME_ON_BOTH_ENGINES = [
  // DNS answers and the TLS_CHECK_ADDRESSES setting decide; the database only says whether a name is
  // listed (one plain read by name, which every domain page makes on both engines).
  "tls-check.test.ts",
  // A malformed Host header is parsed into none before any route runs; the JSON-LD escaping of SITE_NAME
  // is rendering.
  "landers.test.ts",
  // Per-address and total counts of open event streams, kept in the process's memory.
  "fee-stream-limits.test.ts",
  // The fee's event stream is left uncompressed: the compression middleware's rule.
  "buyer-pages.test.ts",
  // Anonymous requests to admin routes are refused by the session guard before an action runs (no
  // session cookie, so no session is read); the final check reads back rows no one may have written.
  "access-control.test.ts",
  // Settings that stop the start fail in the settings' parser or at listen; .env and ENV_FILE, and the
  // listen address (HOST). The test payments, which store an inquiry and mail: payments-test-mode.test.ts.
  "deploy-settings.test.ts",
];

const INTEGRATION_ONCE = [...SQLITE_ONLY, ...POSTGRES_ALREADY, ...SAME_ON_BOTH_ENGINES];

export default defineConfig({
  test: {
    // One worker more than the cores: the files wait part of their time on what they started (a server, the
    // PostgreSQL server, a child script), and Vitest's own default, one fewer than the cores, leaves a 2-core
    // machine's second core mostly idle. On 2 cores, in-process took 95 s with 1 worker, 65 s with 2 and 52 s
    // with 3 (4: 53 s); integration on both engines 224 s with 2, 194 s with 3 (4: 190 s).
    maxWorkers: availableParallelism() + 1,
    projects: [
      {
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.ts"],
          // Unit tests open no database: a test that imports a module which does (env.server.ts, database.server.ts)
          // fails at once on this unusable folder instead of making ./data/app.db.
          env: { DATABASE_URL: "file:/dev/null/unit-tests-open-no-database/app.db" },
        },
      },
      {
        // Loaders, actions and server modules called in the test's process (tests/support/in-process/): a
        // template database migrated and seeded once per run, copied for each file. No server, no build.
        plugins: [stylesheetUrl],
        test: {
          name: "in-process",
          // Worker threads: each file imports the whole app, which starts faster in a thread than in a forked
          // process (the in-process stage took 70 s in forks, 50 s in threads). process.env is each thread's own.
          pool: "threads",
          // Not skipped as other CSS is, so the stylesheet plugin above gives its URL.
          css: { include: [/app\.css/] },
          include: ["tests/in-process/**/*.test.ts"],
          globalSetup: ["tests/support/in-process/sqlite-template-setup.ts"],
          setupFiles: ["tests/support/in-process/setup.ts"],
        },
      },
      {
        plugins: [stylesheetUrl],
        test: {
          name: "in-process-postgres",
          pool: "threads",
          css: { include: [/app\.css/] },
          include: ["tests/in-process/**/*.test.ts"],
          env: { TEST_DATABASE: "postgres" },
          globalSetup: ["tests/support/postgres-setup.ts", "tests/support/in-process/postgres-template-setup.ts"],
          setupFiles: ["tests/support/in-process/setup.ts"],
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          // The build, made first when missing or older than the sources (tests/support/build-setup.ts); one
          // embedded PostgreSQL for the run (tests/support/postgres.ts), each file making its own database.
          globalSetup: ["tests/support/build-setup.ts", "tests/support/postgres-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The same suite with every app server on PostgreSQL (a database per file), less INTEGRATION_ONCE:
        // what is SQLite's own, already runs on PostgreSQL, or does not depend on the engine.
        test: {
          name: "integration-postgres",
          include: ["tests/integration/**/*.test.ts"],
          exclude: INTEGRATION_ONCE.map((file) => `tests/integration/${file}`),
          env: { TEST_DATABASE: "postgres" },
          globalSetup: ["tests/support/build-setup.ts", "tests/support/postgres-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
