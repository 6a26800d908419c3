import type { Kysely } from "kysely";
import { bigInteger } from "./engine";

// Per-address limits shared by every process (app/server/http/rate-limit-store.server.ts): one row per
// key and window. Epoch milliseconds need 64 bits on PostgreSQL (SQLite's integer already has them).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("rate_limits")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("count", "integer", (c) => c.notNull())
    .addColumn("reset_at", bigInteger(db), (c) => c.notNull())
    .execute();
  await db.schema.createIndex("rate_limits_reset").on("rate_limits").column("reset_at").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("rate_limits").execute();
}
