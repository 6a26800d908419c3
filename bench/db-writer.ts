// A second process that writes to the database at DATABASE_URL through the app's own modules, for
// scripts/bench.ts: one command per stdin line ("domain <name> <trackingId>", "sale-states", "fee <cents>"), answered
// "ok" or "error <message>" on stdout. Started before the measurements, so a fee change timed by the
// bench is the write itself (as `npm run set-fee` does it), not the start of a tsx process.
import readline from "node:readline";
import { closeDatabase, migrateToLatest } from "../app/server/db/database.server";
import { insertDomain } from "../app/server/catalog/domains.server";
import { setInquiryFee } from "../app/server/catalog/settings.server";
import { addSaleStateNames } from "./sale-states";

await migrateToLatest();
console.log("ready");
for await (const line of readline.createInterface({ input: process.stdin })) {
  const [command, ...args] = line.trim().split(/\s+/);
  try {
    if (command === "domain") {
      await insertDomain({
        domainName: args[0]!,
        askingPriceCents: 2_450_000,
        trackingId: args[1]!,
        ownerEmail: "owner@example.test",
      });
    } else if (command === "sale-states") {
      await addSaleStateNames();
    } else if (command === "fee") {
      await setInquiryFee(Number(args[0]));
    } else {
      throw new Error(`unknown command "${line}"`);
    }
    console.log("ok");
  } catch (error) {
    console.log(`error ${(error as Error).message}`);
  }
}
await closeDatabase();
