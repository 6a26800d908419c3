// Read-only checks of a server's database from a test or script, on either engine: the SQLite file
// (better-sqlite3) or PostgreSQL (pg). Queries use `?` placeholders; counts and sums come back as numbers.
import Database from "better-sqlite3";
import pg from "pg";

export interface SqlReader {
  all<T>(text: string, params?: unknown[]): Promise<T[]>;
  get<T>(text: string, params?: unknown[]): Promise<T | undefined>;
  /** SQLite's integrity_check ("ok" when sound); PostgreSQL checks its own pages, so "ok" there. */
  integrity(): Promise<string>;
  close(): Promise<void>;
}

const numeric = new Set([pg.types.builtins.INT8, pg.types.builtins.NUMERIC]);

/** `databaseUrl` as DATABASE_URL takes it: file:<path> or postgres://... */
export async function openSqlReader(databaseUrl: string): Promise<SqlReader> {
  if (databaseUrl.startsWith("file:")) {
    const db = new Database(databaseUrl.slice("file:".length), { readonly: true });
    db.pragma("busy_timeout = 5000");
    return {
      all: async (text, params = []) => db.prepare(text).all(...params) as never,
      get: async (text, params = []) => db.prepare(text).get(...params) as never,
      integrity: async () => String(db.pragma("integrity_check", { simple: true })),
      close: async () => {
        db.close();
      },
    };
  }
  const client = new pg.Client({
    connectionString: databaseUrl,
    types: {
      getTypeParser: ((oid: number, format: "text" | "binary") =>
        numeric.has(oid) ? Number : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  await client.connect();
  const numbered = (text: string) => {
    let n = 0;
    return text.replace(/\?/g, () => `$${++n}`);
  };
  return {
    all: async (text, params = []) => (await client.query(numbered(text), params)).rows,
    get: async (text, params = []) => (await client.query(numbered(text), params)).rows[0],
    integrity: async () => "ok",
    close: () => client.end(),
  };
}
