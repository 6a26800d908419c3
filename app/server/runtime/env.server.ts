import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { parseTrustProxy } from "../http/proxy.server";
import { parseDnsServers, parseTlsCheckAddresses } from "../http/tls-check-settings.server";

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /**
   * The address to listen on: 127.0.0.1 behind a proxy on the same machine (the deploy files set it).
   * Unset: every interface, as before HOST existed (containers, a proxy on another host).
   */
  HOST: optionalText.pipe(
    z
      .string()
      .regex(/^[0-9a-z.:-]{1,253}$/i, "must be an address such as 127.0.0.1, ::1 or 0.0.0.0 (or a host name)")
      .optional(),
  ),
  SITE_NAME: z.string().trim().min(1).max(80).default("DomainVault"),
  DATABASE_URL: z
    .string()
    .default("file:./data/app.db")
    .refine(
      (value) => (value.startsWith("file:") && value.length > 5) || isPostgresUrl(value),
      "must look like file:./data/app.db or postgres://user:password@host:5432/database",
    ),
  // Connections each process keeps open to PostgreSQL (unused with SQLite).
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  // Where the session secret, the mail folder and backups live when the database is not a file.
  DATA_DIR: z.string().trim().min(1).default("./data"),
  SESSION_SECRET: optionalText.pipe(z.string().min(16, "must be at least 16 characters").optional()),
  PUBLIC_URL: optionalText.pipe(z.url().optional()),
  EXTRA_HOSTS: optionalText,
  ADMIN_EMAIL: optionalText.pipe(z.email().optional()),
  ADMIN_PASSWORD: optionalText.pipe(z.string().min(6, "must be at least 6 characters").optional()),
  SEED_DEMO: z.enum(["true", "false"]).default("true"),
  STRIPE_SECRET_KEY: optionalText,
  STRIPE_PUBLISHABLE_KEY: optionalText,
  STRIPE_WEBHOOK_SECRET: optionalText,
  STRIPE_API_BASE: optionalText.pipe(z.url().optional()),
  /** How long one Stripe API call may take before the SDK gives up on it (it retries twice). */
  STRIPE_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(20_000),
  SMTP_URL: optionalText.pipe(z.url().optional()),
  MAIL_FROM: optionalText,
  /** First retry delay of a failed email; doubles per attempt up to an hour. */
  MAIL_RETRY_BASE_MS: z.coerce.number().int().min(10).max(3_600_000).default(30_000),
  /**
   * PostgreSQL: how often the connection that LISTENs for other processes' writes (the live fee) is checked
   * with a query, which must answer within the same time; a silent one is replaced.
   */
  LISTEN_CHECK_INTERVAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(15_000),
  /**
   * How long a process holds a message it is sending before another may take it over; renewed while the
   * send lasts, so only a process that stops (or loses its database) mid-send leaves it to another.
   */
  MAIL_LEASE_MS: z.coerce.number().int().min(300).max(3_600_000).default(120_000),
  /** How long a write waits for another writer's lock before the request is answered 503. */
  SQLITE_BUSY_TIMEOUT_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
  LOG_REQUESTS: z.enum(["true", "false"]).default("true"),
  /** The least severe log lines written (app/server/runtime/log.server.ts). */
  LOG_LEVEL: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]))
    .default("info"),
  // In-memory cache of rendered public pages (app/server/http/page-cache.server.ts); "false" for measurements.
  PAGE_CACHE: z.enum(["true", "false"]).default("true"),
  // Where per-address limits count: "memory" (one process) or "database" (shared by every process).
  // Unset: memory on SQLite, database on PostgreSQL.
  RATE_LIMIT_STORE: z.enum(["memory", "database"]).optional(),
  PAGE_CACHE_MAX_MB: z.coerce.number().int().min(1).max(4096).default(64),
  // What express's "trust proxy" takes: true, false, a hop count, or addresses/CIDRs (app/server/http/proxy.server.ts).
  TRUST_PROXY: z
    .string()
    .trim()
    .default("false")
    .superRefine((value, context) => {
      try {
        parseTrustProxy(value);
      } catch (error) {
        context.addIssue({
          code: "custom",
          message: `must be true, false, a hop count or addresses/CIDRs (${(error as Error).message})`,
        });
      }
    }),
  /**
   * Caddy's on-demand TLS (/tls-check): this server's public addresses (comma-separated), "any" for no
   * DNS check, or unset: the addresses PUBLIC_URL's and EXTRA_HOSTS' names resolve to.
   */
  TLS_CHECK_ADDRESSES: optionalText.superRefine((value, context) => {
    try {
      parseTlsCheckAddresses(value);
    } catch (error) {
      const message = `must be any or IP addresses, comma-separated (${(error as Error).message})`;
      context.addIssue({ code: "custom", message });
    }
  }),
  /** The DNS servers /tls-check asks (ip or ip:port, comma-separated); unset: the system's. */
  DNS_SERVERS: optionalText.superRefine((value, context) => {
    try {
      parseDnsServers(value);
    } catch (error) {
      const message = `must be addresses or address:port, comma-separated (${(error as Error).message})`;
      context.addIssue({ code: "custom", message });
    }
  }),
  /** stripe or test; unset: stripe when STRIPE_SECRET_KEY is set, test only on a local address. */
  PAYMENTS: optionalText.pipe(z.enum(["stripe", "test"]).optional()),
  MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(1024 ** 3)
    .default(1024 * 1024),
  // Above the 20 MB portfolio CSV import (MAX_IMPORT_BYTES) plus multipart overhead.
  MAX_UPLOAD_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(1024 ** 3)
    .default(24 * 1024 * 1024),
  /** Open live-fee streams (/events/fee) one client address may hold, and the process in all; 503 beyond. */
  FEE_STREAM_MAX_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000_000).default(100),
  FEE_STREAM_MAX_TOTAL: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  /** Searches (`/?q=`) one address may run per minute that the page cache cannot answer; 429 beyond. */
  SEARCHES_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(30),
  // Tests shorten the event-stream heartbeat; 20 s keeps proxies from closing an idle stream.
  SSE_HEARTBEAT_MS: z.coerce.number().int().min(50).max(600_000).default(20_000),
  /**
   * scrypt's cost for new password hashes, as a power of two: 17 (N=2^17, 128 MiB) is OWASP's. Tests lower it,
   * as other frameworks lower bcrypt's rounds in tests; a stored hash keeps the cost it was made with.
   */
  PASSWORD_HASH_COST: z.coerce.number().int().min(10).max(20).default(17),
  /** How often the refund scheduler looks for unanswered inquiries past their reply window. */
  REFUND_SCHEDULER_INTERVAL_MS: z.coerce.number().int().min(50).max(3_600_000).default(60_000),
  /** How often the payment reconciler asks the provider about open payments (payments/reconciler.server.ts). */
  RECONCILE_INTERVAL_MS: z.coerce.number().int().min(50).max(3_600_000).default(60_000),
  /** How long after a payment or checkout is created the reconciler first asks about it. */
  PAYMENT_RECONCILE_AFTER_MS: z.coerce.number().int().min(0).max(86_400_000).default(120_000),
  /** Card testing: Stripe payments (intents and checkouts) created per hour, site-wide and per client address. */
  MAX_PAYMENTS_PER_HOUR: z.coerce.number().int().min(1).max(1_000_000).default(300),
  MAX_PAYMENTS_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(1).max(1_000_000).default(10),
  /** First retry delay of a failed automatic refund; doubles per attempt up to six hours. */
  REFUND_RETRY_BASE_MS: z.coerce.number().int().min(10).max(3_600_000).default(60_000),
  /** Messages one inquiry's conversation takes per hour (buyer and owner together); 429 beyond. */
  INQUIRY_MESSAGES_PER_HOUR: z.coerce.number().int().min(1).max(1_000_000).default(20),
  /** Days a buyer offered "refund or credit" has to choose before the fee is refunded automatically. */
  CREDIT_CHOICE_DAYS: z.coerce.number().int().min(1).max(365).default(7),
  /** Days the owner has, after a deal is paid, to send the transfer details (docs/deals.md). */
  TRANSFER_DAYS: z.coerce.number().int().min(1).max(365).default(7),
  /** Days an offer stays open before it expires. */
  OFFER_DAYS: z.coerce.number().int().min(1).max(365).default(7),
  /** Days a buyer has to pay an agreed deal before it expires and the name is back on sale. */
  DEAL_PAY_DAYS: z.coerce.number().int().min(1).max(365).default(7),
});

/** Every variable the app reads (the unit test keeps .env.example listing the same). */
export const ENV_VARIABLES = [...Object.keys(EnvSchema.shape), "ENV_FILE", "TEST_CLOCK_OFFSET_MS"];

export type Env = z.infer<typeof EnvSchema> & {
  /** The payment provider new inquiries go through. */
  payments: "stripe" | "test";
  /** Which engine DATABASE_URL names: a SQLite file (the default) or a PostgreSQL server. */
  engine: "sqlite" | "postgres";
  /** The SQLite file; "" on PostgreSQL. */
  databasePath: string;
  dataDir: string;
  sessionSecret: string;
};

export class ConfigError extends Error {}

function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:\/\/./.test(value);
}

export function parseEnv(source: NodeJS.ProcessEnv): Env {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${problems.join("\n  ")}`);
  }
  const values = parsed.data;
  if (values.ADMIN_EMAIL && !values.ADMIN_PASSWORD) {
    throw new ConfigError("Invalid configuration:\n  ADMIN_PASSWORD: required when ADMIN_EMAIL is set");
  }
  const payments = resolvePayments(values);
  const engine = isPostgresUrl(values.DATABASE_URL) ? "postgres" : "sqlite";
  if (engine === "postgres" && !values.SESSION_SECRET) {
    // Several processes on several hosts must sign with one secret; a file per host would not be shared.
    throw new ConfigError(
      "Invalid configuration:\n  SESSION_SECRET: required with a PostgreSQL DATABASE_URL (every process must share it)",
    );
  }
  const databasePath = engine === "sqlite" ? path.resolve(values.DATABASE_URL.slice("file:".length)) : "";
  const dataDir = engine === "sqlite" ? path.dirname(databasePath) : path.resolve(values.DATA_DIR);
  return {
    ...values,
    payments,
    engine,
    databasePath,
    dataDir,
    sessionSecret: values.SESSION_SECRET ?? loadOrCreateSecret(dataDir, databasePath),
  };
}

function isLocalUrl(url: string | undefined): boolean {
  if (!url) return true;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, "");
  return host === "localhost" || host.endsWith(".localhost") || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * Payments are never fake by accident: the test provider is used when asked for (PAYMENTS=test) or,
 * with nothing set, only while the site is local. A public site without Stripe keys does not start.
 */
function resolvePayments(values: z.infer<typeof EnvSchema>): Env["payments"] {
  if (values.PAYMENTS === "test") return "test";
  if (values.PAYMENTS === "stripe" || !isLocalUrl(values.PUBLIC_URL)) {
    if (values.STRIPE_SECRET_KEY) return "stripe";
    const reason =
      values.PAYMENTS === "stripe" ? "PAYMENTS=stripe" : `PUBLIC_URL ${values.PUBLIC_URL} is a public address`;
    throw new ConfigError(
      `Invalid configuration:\n  STRIPE_SECRET_KEY: required for real payments (${reason}); set STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY, or PAYMENTS=test to take test payments only (no money moves)`,
    );
  }
  return values.STRIPE_SECRET_KEY ? "stripe" : "test";
}

const SECRET_MIN_LENGTH = 16;

/** With no SESSION_SECRET set, one is generated once and kept beside the database (mode 0600). */
function loadOrCreateSecret(dataDir: string, databasePath: string): string {
  const file = path.join(dataDir, "session-secret");
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    if (!existsSync(file)) {
      const secret = randomBytes(32).toString("hex");
      writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
      return secret;
    }
  } catch (error) {
    if (!existsSync(file)) {
      throw new ConfigError(
        `Cannot open the database at ${databasePath} (DATABASE_URL): its data folder ${dataDir} is not usable to keep the session secret: ${(error as Error).message}`,
      );
    }
  }
  return readSecretFile(file);
}

/** An empty or short secret file (a failed copy, a truncated restore) would sign sessions weakly: stop instead. */
function readSecretFile(file: string): string {
  const secret = readFileSync(file, "utf8").trim();
  if (secret.length < SECRET_MIN_LENGTH) {
    throw new ConfigError(
      `Invalid configuration:\n  SESSION_SECRET: ${file} is ${secret.length === 0 ? "empty" : `only ${secret.length} characters`}; it needs at least ${SECRET_MIN_LENGTH} (delete the file to have a new one made: every admin is then signed out)`,
    );
  }
  return secret;
}

/**
 * Files this process creates (the data folder, the database and its -wal/-shm, mail, backups, the
 * session secret) are readable by its own user only: 0700 folders, 0600 files.
 */
function restrictNewFiles(): void {
  try {
    process.umask(0o077);
  } catch {
    // a worker thread cannot change the umask; files made there keep their explicit modes
  }
}

/**
 * Settings from a file: ENV_FILE names it, else `.env` in the working directory when there is one.
 * Variables already in the environment win over the file's (Node's process.loadEnvFile).
 */
export function loadEnvFile(): string | null {
  const named = process.env.ENV_FILE?.trim();
  const file = named ? path.resolve(named) : path.resolve(".env");
  if (!named && !existsSync(file)) return null;
  try {
    process.loadEnvFile(file);
  } catch (error) {
    throw new ConfigError(`Invalid configuration:\n  ENV_FILE: cannot read ${file}: ${(error as Error).message}`);
  }
  return file;
}

loadEnvFile();
restrictNewFiles();
export const env: Env = parseEnv(process.env);
