import { sql, type Kysely } from "kysely";

// Issue 34 item 4: before the fix, "Refund my fee" was accepted on an inquiry paid with a credit. Such a
// row is marked fee_choice = 'refund' but never refunded (a credit is never refunded in money: the
// scheduler skips it) nor re-credited (the re-credit needs no choice made). Clearing that choice lets the
// refund pass give the buyer their new credit, as it does for every credit-paid inquiry whose owner stayed
// silent. Nothing to undo: the choice was never valid.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`UPDATE inquiries SET fee_choice = NULL
            WHERE provider = 'credit' AND status = 'paid' AND fee_choice = 'refund' AND credited_at IS NULL`.execute(
    db,
  );
}

export async function down(): Promise<void> {}
