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

const SQLITE_ONLY_OR_POSTGRES_ALREADY = [
  "backup.test.ts",
  "faults-db-busy.test.ts",
  "fee-change-race.test.ts",
  "startup.test.ts",
  "migrate-to-postgres.test.ts",
  "postgres-migrations.test.ts",
  "cluster.test.ts",
  "read-at-once.test.ts",
  "prepared-statements.test.ts",
];

export default defineConfig({
  test: {
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
        // The same suite with every app server on PostgreSQL (a database per file), less what is SQLite's
        // own (the backup command, the busy lock, the SQLite file at start) or already runs on PostgreSQL.
        test: {
          name: "integration-postgres",
          include: ["tests/integration/**/*.test.ts"],
          exclude: SQLITE_ONLY_OR_POSTGRES_ALREADY.map((file) => `tests/integration/${file}`),
          env: { TEST_DATABASE: "postgres" },
          globalSetup: ["tests/support/build-setup.ts", "tests/support/postgres-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
