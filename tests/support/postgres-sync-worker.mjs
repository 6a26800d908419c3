// The worker thread behind tests/support/postgres-sync.ts: one pg connection to a test server's
// database. Each request is answered on the port, then the shared flag is raised so the test's thread,
// blocked in Atomics.wait, reads the answer synchronously (receiveMessageOnPort).
// Plain JavaScript: a worker thread does not go through Vitest's TypeScript transform.
import pg from "pg";
import { workerData } from "node:worker_threads";

const { url, flag, port } = workerData;
const signal = new Int32Array(flag);
const numeric = new Set([pg.types.builtins.INT8, pg.types.builtins.NUMERIC]);
// Counts, sums and bigint ids come back as numbers, as better-sqlite3 gives them.
const getTypeParser = (oid, format) => (numeric.has(oid) ? Number : pg.types.getTypeParser(oid, format));
const client = new pg.Client({ connectionString: url, types: { getTypeParser } });
const connected = client.connect();

function answer(message) {
  port.postMessage(message);
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
}

port.on("message", async ({ text, params }) => {
  try {
    await connected;
    const result = await client.query(params ? { text, values: params } : text);
    // exec() with several statements answers an array of results: the last one stands for them all.
    const last = Array.isArray(result) ? result.at(-1) : result;
    answer({
      rows: last?.rows ?? [],
      rowCount: last?.rowCount ?? 0,
      fields: (last?.fields ?? []).map((field) => field.name),
    });
  } catch (error) {
    answer({ error: { message: error.message, code: error.code } });
  }
});
