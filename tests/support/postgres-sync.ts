// app.db() on PostgreSQL: the synchronous better-sqlite3 API the tests use (prepare().get/all/run/pluck,
// exec, transaction, pragma("integrity_check"), close) over a real pg connection. The connection lives
// in a worker thread (./postgres-sync-worker.mjs); each call posts the query and blocks in Atomics.wait
// until the worker has answered, so a test reads and writes the server's database on PostgreSQL with the
// same lines as on SQLite.
//
// What is translated: `?` placeholders and `@name`/`:name`/`$name` with an object of values become $1,
// $2...; an INSERT without RETURNING gets `RETURNING *`, so run() can answer lastInsertRowid (the new
// row's id) as well as changes (the row count). The SQL itself must be valid on both engines: tests write
// it portably (no datetime('now'), INSERT OR IGNORE, two-argument max()...).
import type Database from "better-sqlite3";
import path from "node:path";
import { MessageChannel, receiveMessageOnPort, Worker } from "node:worker_threads";

const QUERY_TIMEOUT_MS = 60_000;
const workerFile = path.join(import.meta.dirname, "postgres-sync-worker.mjs");

type Row = Record<string, unknown>;
interface Answer {
  rows: Row[];
  rowCount: number;
  fields: string[];
}

export class PostgresQueryError extends Error {
  readonly code: string | undefined;
  readonly sql: string;
  constructor(message: string, code: string | undefined, sql: string) {
    super(`${message} (PostgreSQL ${code ?? "error"}) in: ${sql}`);
    this.code = code;
    this.sql = sql;
  }
}

/**
 * A synchronous handle on a PostgreSQL database, typed as the better-sqlite3 Database it stands in for
 * (only the methods above exist). `onWrite` is told before each statement that is not a SELECT.
 */
export function openPostgresSync(url: string, onWrite: () => void = () => {}): Database.Database {
  const flag = new SharedArrayBuffer(4);
  const signal = new Int32Array(flag);
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(workerFile, { workerData: { url, flag, port: port2 }, transferList: [port2] });
  worker.unref();
  let closed = false;
  let depth = 0;

  const query = (text: string, params?: unknown[]): Answer => {
    if (closed) throw new TypeError("The database connection is not open");
    if (!/^\s*select\b/i.test(text)) onWrite();
    Atomics.store(signal, 0, 0);
    port1.postMessage({ text, params });
    if (Atomics.wait(signal, 0, 0, QUERY_TIMEOUT_MS) === "timed-out") {
      throw new Error(`PostgreSQL did not answer within ${QUERY_TIMEOUT_MS} ms: ${text}`);
    }
    const message = receiveMessageOnPort(port1)?.message as
      (Answer & { error?: { message: string; code?: string } }) | undefined;
    if (!message) throw new Error(`no answer from the PostgreSQL worker: ${text}`);
    if (message.error) throw new PostgresQueryError(message.error.message, message.error.code, text);
    return message;
  };

  const prepare = (source: string) => {
    let plucked = false;
    const execute = (args: unknown[], forRun = false) => {
      const { text, values } = toPostgres(source, args);
      const returning = forRun && /^\s*insert\b/i.test(text) && !/\breturning\b/i.test(text);
      return query(returning ? `${text.replace(/[\s;]+$/, "")} RETURNING *` : text, values);
    };
    const shape = (answer: Answer, row: Row | undefined) => (plucked && row ? row[answer.fields[0]!] : row);
    const statement = {
      get: (...args: unknown[]) => {
        const answer = execute(args);
        return shape(answer, answer.rows[0]);
      },
      all: (...args: unknown[]) => {
        const answer = execute(args);
        return answer.rows.map((row) => shape(answer, row));
      },
      run: (...args: unknown[]) => {
        const answer = execute(args, true);
        return { changes: answer.rowCount, lastInsertRowid: Number(answer.rows.at(-1)?.id ?? 0) };
      },
      pluck: (toggle = true) => {
        plucked = toggle;
        return statement;
      },
    };
    return statement;
  };

  const transaction = (fn: (...args: unknown[]) => unknown) => {
    const run = (...args: unknown[]) => {
      const savepoint = `test_savepoint_${depth}`;
      query(depth === 0 ? "BEGIN" : `SAVEPOINT ${savepoint}`);
      depth += 1;
      try {
        const result = fn(...args);
        depth -= 1;
        query(depth === 0 ? "COMMIT" : `RELEASE SAVEPOINT ${savepoint}`);
        return result;
      } catch (error) {
        depth -= 1;
        query(depth === 0 ? "ROLLBACK" : `ROLLBACK TO SAVEPOINT ${savepoint}`);
        throw error;
      }
    };
    return Object.assign(run, { deferred: run, immediate: run, exclusive: run });
  };

  const handle = {
    prepare,
    transaction,
    exec: (text: string) => {
      query(text);
      return handle;
    },
    pragma: (text: string, options?: { simple?: boolean }) => {
      const name = text.split(/\s*=\s*/)[0]!.trim();
      // PostgreSQL checks its own pages; there is no file a test could find torn.
      if (name === "integrity_check") return options?.simple ? "ok" : [{ integrity_check: "ok" }];
      // Lock waits are the server's business on PostgreSQL.
      if (name === "busy_timeout") return options?.simple ? 0 : [{ timeout: 0 }];
      throw new Error(`pragma ${name} has no PostgreSQL meaning in the tests' database handle`);
    },
    close: () => {
      if (closed) return handle;
      try {
        query("SELECT 1");
      } finally {
        closed = true;
        port1.close();
        void worker.terminate();
      }
      return handle;
    },
    get open() {
      return !closed;
    },
  };
  return handle as unknown as Database.Database;
}

/**
 * better-sqlite3's placeholders to PostgreSQL's: `?` in order, `@name`/`:name`/`$name` from an object
 * (the same name keeps its number). Quoted strings, quoted identifiers, comments and `::` casts are left
 * as they are.
 */
export function toPostgres(source: string, args: unknown[]): { text: string; values: unknown[] | undefined } {
  const positional: unknown[] = [];
  let named: Record<string, unknown> | undefined;
  for (const arg of args) {
    if (Array.isArray(arg)) positional.push(...arg);
    else if (arg !== null && typeof arg === "object" && !(arg instanceof Date) && !Buffer.isBuffer(arg))
      named = { ...named, ...(arg as Row) };
    else positional.push(arg);
  }
  const values: unknown[] = [];
  const numbers = new Map<string, number>();
  let next = 0;
  let text = "";
  for (let i = 0; i < source.length;) {
    const char = source[i]!;
    const rest = source.slice(i);
    const skipped =
      /^'(?:[^']|'')*'/.exec(rest) ??
      /^"(?:[^"]|"")*"/.exec(rest) ??
      /^--[^\n]*/.exec(rest) ??
      /^\/\*[\s\S]*?\*\//.exec(rest) ??
      /^::/.exec(rest);
    if (skipped) {
      text += skipped[0];
      i += skipped[0].length;
      continue;
    }
    if (char === "?") {
      if (next >= positional.length) throw new Error(`too few parameters for: ${source}`);
      values.push(toValue(positional[next++]));
      text += `$${values.length}`;
      i += 1;
      continue;
    }
    const name = /^[@:$]([A-Za-z_]\w*)/.exec(rest);
    if (name) {
      const key = name[1]!;
      if (!named || !(key in named)) throw new Error(`missing named parameter "${key}" for: ${source}`);
      let number = numbers.get(key);
      if (number === undefined) {
        values.push(toValue(named[key]));
        number = values.length;
        numbers.set(key, number);
      }
      text += `$${number}`;
      i += name[0].length;
      continue;
    }
    text += char;
    i += 1;
  }
  if (next < positional.length) throw new Error(`too many parameters (${positional.length}) for: ${source}`);
  return { text, values: values.length > 0 ? values : undefined };
}

function toValue(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === "bigint") return value.toString();
  return value;
}
