// Sets the inquiry fee from the shell: `npm run set-fee -- 24.99`. Open domain pages update live.
import { dollarsToCents, formatUsd } from "../app/lib/money";
import { closeDatabase, migrateToLatest } from "../app/server/db.server";
import { setInquiryFee } from "../app/server/settings.server";

const input = process.argv[2] ?? "";
const cents = dollarsToCents(input);
if (cents === null) {
  console.error(`Usage: npm run set-fee -- <dollars>, e.g. 24.99 (got "${input}")`);
  process.exit(2);
}
await migrateToLatest();
setInquiryFee(cents);
console.log(`Inquiry fee set to ${formatUsd(cents)}`);
closeDatabase();
