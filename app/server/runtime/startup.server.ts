import { seedDemoDomains } from "../../../db/seed";
import { db, closeDatabase, migrateToLatest } from "../db/database.server";
import { domainViewFlushTask } from "../catalog/domain-views.server";
import { env } from "./env.server";
import { nowIso } from "./clock.server";
import { closeAllStreams } from "../catalog/events.server";
import { autoRefundTask } from "../refunds/auto-refund.server";
import { outboxTask } from "../mail/mail.server";
import { reconcilerTask } from "../payments/reconciler.server";
import { plannerStatsTask } from "../db/planner-stats.server";
import { stopWatchingFee, watchForExternalFeeChanges } from "../catalog/settings.server";
import { startContentVersion, stopContentVersion } from "../db/content-version.server";
import { PasswordPolicyError, upsertAdmin } from "../admin/users.server";
import { log } from "./log.server";
import { prepareSignIn } from "../admin/auth.server";

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
  const tables = await db.introspection.getTables();
  return !tables.some((table) => table.name === "domains");
}

/** Processes starting together on a new database all see it new: only the one whose mark is stored seeds. */
async function claimDemoSeed(): Promise<boolean> {
  const at = nowIso();
  const result = await db
    .insertInto("settings")
    .values({ key: "demo_seeded_at", value: at, created_at: at, updated_at: at })
    .onConflict((conflict) => conflict.column("key").doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}

async function applyAdminFromEnv(email: string, password: string): Promise<void> {
  try {
    const { changed, sessionsEnded } = await upsertAdmin(email, password);
    if (changed) log.info({ email, sessionsEnded }, "admin password set from ADMIN_PASSWORD");
  } catch (error) {
    if (error instanceof PasswordPolicyError)
      throw new Error(`Invalid configuration:\n  ADMIN_PASSWORD: ${error.message}`, { cause: error });
    throw error;
  }
}

/** The database part of a start: the migrations, then the demo domains on a brand-new database (SEED_DEMO). */
export async function prepareDatabase(): Promise<void> {
  const brandNew = await isBrandNewDatabase();
  await migrateToLatest();
  if (brandNew && env.SEED_DEMO === "true" && (await claimDemoSeed())) await seedDemoDomains(db, env.ADMIN_EMAIL ?? "");
}

export async function startApp(): Promise<void> {
  await prepareDatabase();
  if (env.ADMIN_EMAIL && env.ADMIN_PASSWORD) await applyAdminFromEnv(env.ADMIN_EMAIL, env.ADMIN_PASSWORD);
  await watchForExternalFeeChanges();
  await startContentVersion();
  await prepareSignIn();
  for (const task of backgroundTasks) await task.start();
  warnAboutPaymentSettings();
  warnAboutListenSettings();
}

/**
 * With an https PUBLIC_URL and no HOST the app listens on every interface: http://server-ip:PORT reaches
 * it without the TLS proxy, and such requests count as https (PUBLIC_URL says so).
 */
function warnAboutListenSettings(): void {
  if (env.HOST || !env.PUBLIC_URL?.toLowerCase().startsWith("https://")) return;
  log.warn(
    `HOST is not set: the app listens on every interface, so http://<this server>:${env.PORT} reaches it ` +
      `without the TLS proxy in front of ${env.PUBLIC_URL}; set HOST=127.0.0.1 when that proxy runs on this machine`,
  );
}

/** Settings that start but lose something: said once at start, as warnings in the log. */
function warnAboutPaymentSettings(): void {
  const warn = (msg: string) => log.warn(msg);
  if (env.payments === "stripe" && !env.STRIPE_WEBHOOK_SECRET) {
    warn(
      "STRIPE_WEBHOOK_SECRET is not set: Stripe webhooks are refused, so a buyer who pays and closes the tab is recorded (and the owner emailed) only when the payment reconciler next asks Stripe (minutes later, not at once), and refunds finished in the Stripe dashboard are seen late; set it to the signing secret of the endpoint /webhooks/stripe",
    );
  }
  if (env.payments === "stripe" && !env.STRIPE_PUBLISHABLE_KEY) {
    warn(
      "STRIPE_PUBLISHABLE_KEY is not set: buyers with JavaScript cannot use the card form and pay on Stripe Checkout instead",
    );
  }
  if (env.payments === "test" && env.PUBLIC_URL) {
    warn(
      `PAYMENTS=test on ${env.PUBLIC_URL}: buyers pay with test cards, no money moves; every page and email says so`,
    );
  }
}

export async function stopApp(): Promise<void> {
  closeAllStreams();
  stopWatchingFee();
  stopContentVersion();
  for (const task of backgroundTasks) await task.stop();
  await closeDatabase().catch(() => {});
}
