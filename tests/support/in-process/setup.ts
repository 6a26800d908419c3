// setupFile of the in-process projects, run before each test file (and so before any app module is imported:
// env.server.ts parses process.env once). Each file gets a database of its own, a copy of the run's template
// (./template.ts): SQLite, the file copied into a temporary folder; PostgreSQL, CREATE DATABASE ... TEMPLATE.
// Settings come from IN_PROCESS_ENV alone: whatever the developer's shell or .env holds is not read.
// A file that needs other settings sets them in `vi.hoisted`, which runs before the file's imports.
import { randomBytes } from "node:crypto";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll } from "vitest";
import { envVariables } from "../../../scripts/docs-check";
import { postgresServerUrl } from "../postgres";
import { IN_PROCESS_ENV, POSTGRES_TEMPLATE_VARIABLE, SQLITE_TEMPLATE_VARIABLE } from "./template";

const projectRoot = path.resolve(import.meta.dirname, "../../..");
const postgres = process.env.TEST_DATABASE === "postgres";

const keptLogLevel = process.env.LOG_LEVEL;
for (const name of envVariables(readFileSync(path.join(projectRoot, "app/server/runtime/env.server.ts"), "utf8"))) {
  delete process.env[name];
}
// Quiet unless asked for (LOG_LEVEL=debug npx vitest ... shows the app's log lines).
Object.assign(process.env, IN_PROCESS_ENV, { LOG_LEVEL: keptLogLevel ?? "silent" });

const dataDir = mkdtempSync(path.join(tmpdir(), "domains-in-process-"));
let postgresDatabase: { serverUrl: string; name: string } | undefined;

if (postgres) {
  const template = required(POSTGRES_TEMPLATE_VARIABLE);
  const serverUrl = await postgresServerUrl();
  const name = `test_${process.pid}_${randomBytes(6).toString("hex")}`;
  await onServer(serverUrl, `CREATE DATABASE ${name} TEMPLATE ${template}`);
  postgresDatabase = { serverUrl, name };
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  Object.assign(process.env, {
    DATABASE_URL: url.toString(),
    SESSION_SECRET: randomBytes(24).toString("hex"),
    DATA_DIR: dataDir,
  });
} else {
  const file = path.join(dataDir, "app.db");
  copyFileSync(required(SQLITE_TEMPLATE_VARIABLE), file);
  process.env.DATABASE_URL = `file:${file}`;
}

afterAll(async () => {
  // Imported here only: a file that never touched the database opens it now just to close it (cheap).
  const { closeDatabase } = await import("../../../app/server/db/database.server");
  await closeDatabase();
  if (postgresDatabase) await onServer(postgresDatabase.serverUrl, `DROP DATABASE IF EXISTS ${postgresDatabase.name}`);
  rmSync(dataDir, { recursive: true, force: true });
});

function required(variable: string): string {
  const value = process.env[variable];
  if (!value)
    throw new Error(`${variable} is not set: run the file through the in-process projects (vitest.config.ts)`);
  return value;
}

async function onServer(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
