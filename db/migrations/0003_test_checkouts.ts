import type { Kysely } from "kysely";

// The offline test provider's hosted-checkout stand-in: one row per checkout page, pointing at its payment.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("test_checkouts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("payment_id", "text", (c) => c.notNull().references("test_payments.id"))
    .addColumn("success_url", "text", (c) => c.notNull())
    .addColumn("cancel_url", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("test_checkouts").execute();
}
