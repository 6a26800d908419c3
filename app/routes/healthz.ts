import { sql } from "kysely";
import { db, isDatabaseOpen, statementsRun } from "../server/db/database.server";
import { subscriberCount } from "../server/catalog/events.server";
import { verifications } from "../server/admin/auth.server";
import { feeStreamStats } from "../server/http/fee-stream.server";
import { signInGuardStats } from "../server/http/sign-in-guard.server";
import { isShuttingDown } from "../server/runtime/lifecycle.server";
import { changesStatus } from "../server/db/changes.server";
import { contentVersionStatus } from "../server/db/content-version.server";

/**
 * For load balancers and monitors: 200 while the database answers and the process is not shutting down.
 * `changes.listening` false: this process does not hear other processes' writes now (it reconnects by itself;
 * meanwhile its open pages miss fee changes made elsewhere), which a monitor should flag without taking it out.
 * `contentVersion`: how the page cache knows the content version (kept in memory; `keptIn: "database"` while
 * checks fail), `statements`: statements this process sent to the database since it started.
 */
export async function loader() {
  let database: boolean;
  try {
    database = isDatabaseOpen() && (await sql`SELECT 1 AS ok`.execute(db)).rows.length === 1;
  } catch {
    database = false;
  }
  const shuttingDown = isShuttingDown();
  const ok = database && !shuttingDown;
  return Response.json(
    {
      ok,
      database,
      shuttingDown,
      changes: changesStatus(),
      contentVersion: contentVersionStatus(),
      statements: statementsRun(),
      feeSubscribers: subscriberCount(),
      feeStreams: feeStreamStats(),
      signIns: { ...signInGuardStats(), verifications: verifications.stats() },
    },
    { status: ok ? 200 : 503, headers: { "Cache-Control": "no-store" } },
  );
}
