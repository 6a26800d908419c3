import { sql, type Kysely } from "kysely";
import { idColumn } from "./engine";

// Refund or credit when the owner stays silent (issue 23 item 3). At the reply deadline the buyer may be
// offered a choice instead of an immediate refund:
//   inquiries.credit_offered_at   when the buyer was emailed the choice (once)
//   inquiries.fee_choice          'refund' or 'credit': set once by a conditional UPDATE, so one choice wins
//   inquiries.credited_at         when the fee became a credit (the inquiry is then never refunded)
//   credits                       one code per credited inquiry (source_inquiry_id is unique), worth one
//                                 inquiry at any fee, valid for a year; shown_at: the page showed it once
// Sites that already have inquiries keep today's behaviour (refund automatically); new sites default to
// letting the buyer choose (the setting's absence).
export async function up(db: Kysely<any>): Promise<void> {
  for (const column of ["credit_offered_at", "fee_choice", "credited_at"]) {
    await db.schema.alterTable("inquiries").addColumn(column, "text").execute();
  }
  await db.schema
    .createTable("credits")
    .$call(idColumn(db))
    .addColumn("code", "text", (c) => c.notNull().unique())
    .addColumn("source_inquiry_id", "integer", (c) => c.notNull().unique().references("inquiries.id"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("shown_at", "text")
    .addColumn("used_at", "text")
    .addColumn("used_by_inquiry_id", "integer", (c) => c.references("inquiries.id"))
    .execute();
  const now = new Date().toISOString();
  await sql`INSERT INTO settings (key, value, created_at, updated_at)
            SELECT 'silence_policy', 'refund', ${now}, ${now} WHERE EXISTS (SELECT 1 FROM inquiries)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DELETE FROM settings WHERE key = 'silence_policy'`.execute(db);
  await db.schema.dropTable("credits").execute();
  for (const column of ["credited_at", "fee_choice", "credit_offered_at"]) {
    await db.schema.alterTable("inquiries").dropColumn(column).execute();
  }
}
