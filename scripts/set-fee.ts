// Sets the inquiry fee from the shell: `npm run set-fee -- 24.99`. Open domain pages update live.
import { parseFeeAmount } from "../app/lib/admin-forms";
import { formatUsd } from "../app/lib/money";
import { closeDatabase, migrateToLatest } from "../app/server/db/database.server";
import { setInquiryFee } from "../app/server/catalog/settings.server";

const input = process.argv[2] ?? "";
// The admin form's rules: at most two decimals, 0 (free) or from the $0.50 card minimum to the maximum.
const parsed = parseFeeAmount(input);
if ("error" in parsed) {
  console.error(`${parsed.error} Usage: npm run set-fee -- <dollars>, e.g. 24.99 (got "${input}")`);
  process.exit(2);
}
const cents = parsed.cents;
await migrateToLatest();
await setInquiryFee(cents);
console.log(`Inquiry fee set to ${formatUsd(cents)}`);
await closeDatabase();
