// The sale's two page states for the bench (issue 37: "the domain page keeps its cached and first-render
// figures with the new states"): a listed name marked "Under offer", and a sold one, as a deal leaves them
// (app/server/sale/deal-payment.server.ts): sold names have sale_state, sold_at and deleted_at set. The
// deals themselves do not matter to these pages, so none is made.
import { db } from "../app/server/db/database.server";
import { insertDomain } from "../app/server/catalog/domains.server";

export const UNDER_OFFER_SHORT = "velnoraoffer";
export const SOLD_SHORT = "velnorasold";

export async function addSaleStateNames(): Promise<void> {
  const at = new Date().toISOString();
  for (const short of [UNDER_OFFER_SHORT, SOLD_SHORT]) {
    await insertDomain({
      domainName: `${short}.com`,
      askingPriceCents: 2_450_000,
      trackingId: short,
      ownerEmail: "owner@example.test",
    });
  }
  await db
    .updateTable("domains")
    .set({ sale_state: "under_offer", updated_at: at })
    .where("domain_name", "=", `${UNDER_OFFER_SHORT}.com`)
    .execute();
  await db
    .updateTable("domains")
    .set({ sale_state: "sold", sold_at: at, deleted_at: at, updated_at: at })
    .where("domain_name", "=", `${SOLD_SHORT}.com`)
    .execute();
}
