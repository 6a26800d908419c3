// The integration project's globalSetup: one embedded PostgreSQL for the whole test run, stopped at the
// end. Test files reach it through TEST_POSTGRES_URL (tests/support/postgres.ts); a run that already has
// TEST_POSTGRES_URL set uses that server instead. The server starts in the background, so files that only
// use SQLite do not wait for it.
import { POSTGRES_URL_VARIABLE, startPostgresServer } from "./postgres";

export default async function setup(): Promise<() => Promise<void>> {
  if (process.env[POSTGRES_URL_VARIABLE]) return async () => {};
  const server = await startPostgresServer();
  server.ready.catch((error: Error) => console.error(`embedded PostgreSQL did not start: ${error.message}`));
  process.env[POSTGRES_URL_VARIABLE] = server.url;
  return () => server.stop();
}
