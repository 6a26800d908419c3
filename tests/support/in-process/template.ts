// The in-process projects' template database: migrated and seeded once per test run, by the same code a
// server runs at start (prepareDatabase in app/server/runtime/startup.server.ts), in a process of its own
// (./prepare-template.ts) so this process keeps no connection to it. Each test file gets a copy (./setup.ts).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { createTestDatabase, postgresServerUrl } from "../postgres";

const projectRoot = path.resolve(import.meta.dirname, "../../..");

/** Where the test files find the template: a SQLite file, or a database name on TEST_POSTGRES_URL's server. */
export const SQLITE_TEMPLATE_VARIABLE = "IN_PROCESS_SQLITE_TEMPLATE";
export const POSTGRES_TEMPLATE_VARIABLE = "IN_PROCESS_POSTGRES_TEMPLATE";

/** The settings every in-process test file runs with, besides its database (./setup.ts adds that). */
export const IN_PROCESS_ENV = {
  ENV_FILE: "/dev/null",
  SEED_DEMO: "true",
  LOG_REQUESTS: "false",
  PAYMENTS: "test",
  // A small scrypt (1 MiB, milliseconds): sign-ins are many here. The real cost's own tests set 17.
  PASSWORD_HASH_COST: "10",
} as const;

export async function makeSqliteTemplate(): Promise<() => Promise<void>> {
  const folder = mkdtempSync(path.join(tmpdir(), "domains-template-"));
  const file = path.join(folder, "app.db");
  await prepare({ DATABASE_URL: `file:${file}` });
  process.env[SQLITE_TEMPLATE_VARIABLE] = file;
  return async () => rmSync(folder, { recursive: true, force: true });
}

export async function makePostgresTemplate(): Promise<() => Promise<void>> {
  const url = await createTestDatabase();
  const folder = mkdtempSync(path.join(tmpdir(), "domains-template-"));
  try {
    await prepare({ DATABASE_URL: url, SESSION_SECRET: randomBytes(24).toString("hex"), DATA_DIR: folder });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  const name = new URL(url).pathname.slice(1);
  process.env[POSTGRES_TEMPLATE_VARIABLE] = name;
  return async () => {
    const client = new pg.Client({ connectionString: await postgresServerUrl() });
    await client.connect();
    try {
      await client.query(`DROP DATABASE IF EXISTS ${name}`);
    } finally {
      await client.end();
    }
  };
}

function prepare(databaseEnv: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        `--import=${path.join(projectRoot, "scripts/ts-imports.mjs")}`,
        path.join(import.meta.dirname, "prepare-template.ts"),
      ],
      {
        cwd: projectRoot,
        env: {
          PATH: process.env.PATH ?? "",
          HOME: process.env.HOME ?? "",
          LOG_LEVEL: "warn",
          ...IN_PROCESS_ENV,
          ...databaseEnv,
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`preparing the template database failed (${code}):\n${output}`)),
    );
  });
}
