// An online, consistent copy of the database while the app keeps serving:
//   npm run backup                 -> data/backups/<timestamp>.db
//   npm run backup -- /path/x.db   -> that file (never overwritten)
// SQLite only: a PostgreSQL database is backed up with pg_dump (README, "Backups").
import Database from "better-sqlite3";
import { chmodSync, existsSync, mkdirSync, renameSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { log } from "../app/server/runtime/log.server";

// Log lines (JSON, app/server/runtime/log.server.ts): a backup usually runs from cron, its output kept with the app's.
function fail(message: string): never {
  log.error(`Backup failed: ${message}`);
  process.exit(1);
}

const ON_POSTGRES =
  "DATABASE_URL names a PostgreSQL database; npm run backup copies a SQLite file only. Back PostgreSQL up with " +
  'pg_dump: pg_dump --format=custom --file=app.dump "$DATABASE_URL" (restore into an empty database with pg_restore).';

// Read after the env module loaded .env: a PostgreSQL configuration it refuses (no SESSION_SECRET)
// still gets the pg_dump advice rather than an unrelated complaint.
const { env } = await import("../app/server/runtime/env.server").catch((error: unknown) => {
  if (/^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? "")) fail(ON_POSTGRES);
  throw error;
});
if (env.engine === "postgres") fail(ON_POSTGRES);

const stamp = new Date().toISOString().replace(/[:.]/g, "-");
const target = path.resolve(process.argv[2] ?? path.join(env.dataDir, "backups", `${stamp}.db`));
if (!existsSync(env.databasePath)) fail(`there is no database at ${env.databasePath} (DATABASE_URL)`);
if (existsSync(target)) fail(`${target} already exists; give another path`);
mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });

const started = performance.now();
const partial = `${target}.partial`;
rmSync(partial, { force: true });
const source = new Database(env.databasePath, { readonly: true, fileMustExist: true });
source.pragma("busy_timeout = 5000");
try {
  // SQLite's online backup API. Copying all remaining pages in one step reads one snapshot, so the copy
  // is consistent even while the server writes (a write between steps would restart a paged copy).
  await source.backup(partial, { progress: () => 0x7fffffff });
} catch (error) {
  rmSync(partial, { force: true });
  fail(`${(error as Error).message}`);
} finally {
  source.close();
}

// The copy keeps the source's WAL mode; a backup should be one self-contained file.
const copy = new Database(partial);
copy.pragma("journal_mode = DELETE");
const integrity = copy.pragma("integrity_check", { simple: true });
const domains = (copy.prepare("SELECT count(*) AS n FROM domains").get() as { n: number } | undefined)?.n ?? 0;
copy.close();
if (integrity !== "ok") {
  rmSync(partial, { force: true });
  fail(`the copy did not pass SQLite's integrity check (${String(integrity)})`);
}
chmodSync(partial, 0o600);
renameSync(partial, target);
const bytes = statSync(target).size;
const durationMs = Math.round(performance.now() - started);
log.info(
  { target, bytes, domains, durationMs },
  `Backup written to ${target} (${bytes} bytes, ${domains} domains) in ${durationMs} ms`,
);
