import { sql } from "kysely";
import { seedDemoDomains } from "../../db/seed";
import { db, closeDatabase, migrateToLatest } from "./db.server";
import { domainViewFlushTask } from "./domain-views.server";
import { env } from "./env.server";
import { closeAllStreams } from "./events.server";
import { autoRefundTask } from "./auto-refund.server";
import { outboxTask } from "./mail.server";
import { reconcilerTask } from "./payments/reconciler.server";
import { plannerStatsTask } from "./planner-stats.server";
import { stopWatchingFee, watchForExternalFeeChanges } from "./settings.server";
import { upsertAdmin } from "./users.server";

type Task = { start: () => void | Promise<void>; stop: () => void | Promise<void> };
const backgroundTasks: Task[] = [];
registerBackgroundTask(domainViewFlushTask);

/** Background work (the mail outbox, schedulers) registers here to start with the server and stop with it. */
export function registerBackgroundTask(task: Task): void {
  backgroundTasks.push(task);
}

registerBackgroundTask(outboxTask);
registerBackgroundTask(plannerStatsTask);
registerBackgroundTask(autoRefundTask);
registerBackgroundTask(reconcilerTask);

async function isBrandNewDatabase(): Promise<boolean> {
  const row = await sql<{ n: number }>`SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'domains'`.execute(db);
  return row.rows[0]!.n === 0;
}

export async function startApp(): Promise<void> {
  const brandNew = await isBrandNewDatabase();
  await migrateToLatest();
  if (brandNew && env.SEED_DEMO === "true") await seedDemoDomains(db, env.ADMIN_EMAIL ?? "");
  if (env.ADMIN_EMAIL && env.ADMIN_PASSWORD) await upsertAdmin(env.ADMIN_EMAIL, env.ADMIN_PASSWORD);
  watchForExternalFeeChanges();
  for (const task of backgroundTasks) await task.start();
}

export async function stopApp(): Promise<void> {
  closeAllStreams();
  stopWatchingFee();
  for (const task of backgroundTasks) await task.stop();
  await db.destroy().catch(() => {});
  closeDatabase();
}
