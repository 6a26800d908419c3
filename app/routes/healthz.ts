import { sqlite } from "../server/db.server";
import { subscriberCount } from "../server/events.server";
import { verifications } from "../server/auth.server";
import { feeStreamStats } from "../server/http/fee-stream.server";
import { signInGuardStats } from "../server/http/sign-in-guard.server";
import { isShuttingDown } from "../server/lifecycle.server";

/** For load balancers and monitors: 200 while the database answers and the process is not shutting down. */
export function loader() {
  let database = false;
  try {
    database = sqlite.open && sqlite.prepare("SELECT 1 AS ok").get() !== undefined;
  } catch {
    database = false;
  }
  const shuttingDown = isShuttingDown();
  const ok = database && !shuttingDown;
  return Response.json(
    { ok, database, shuttingDown, feeSubscribers: subscriberCount(), feeStreams: feeStreamStats(), signIns: { ...signInGuardStats(), verifications: verifications.stats() } },
    { status: ok ? 200 : 503, headers: { "Cache-Control": "no-store" } },
  );
}
