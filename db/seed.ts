import type { Kysely } from "kysely";
import type { Database } from "./schema";

// A believable demo portfolio: premium names with guiding prices in cents.
export const DEMO_DOMAINS: Array<{ name: string; priceCents: number; trackingId: string }> = [
  { name: "velora.com", priceCents: 2_450_000, trackingId: "velora" },
  { name: "quantix.com", priceCents: 1_800_000, trackingId: "quantix" },
  { name: "brightpath.com", priceCents: 950_000, trackingId: "brightpath" },
  { name: "nordhaven.com", priceCents: 1_275_000, trackingId: "nordhaven" },
  { name: "lumora.io", priceCents: 480_000, trackingId: "lumora" },
  { name: "cargoflow.com", priceCents: 650_000, trackingId: "cargoflow" },
  { name: "zentrix.ai", priceCents: 1_150_000, trackingId: "zentrix" },
  { name: "harborly.com", priceCents: 395_000, trackingId: "harborly" },
  { name: "mintleaf.co", priceCents: 220_000, trackingId: "mintleaf" },
  { name: "solvane.com", priceCents: 875_000, trackingId: "solvane" },
  { name: "pixelforge.net", priceCents: 310_000, trackingId: "pixelforge" },
  { name: "truenorth.app", priceCents: 560_000, trackingId: "truenorth" },
];

export async function seedDemoDomains(db: Kysely<Database>, ownerEmail = ""): Promise<void> {
  const start = Date.now();
  // Spaced a minute apart so "newest first" has a stable, visible order.
  const rows = DEMO_DOMAINS.map((domain, index) => {
    const timestamp = new Date(start - index * 60_000).toISOString();
    return {
      domain_name: domain.name,
      asking_price_cents: domain.priceCents,
      tracking_id: domain.trackingId,
      owner_email: ownerEmail,
      created_at: timestamp,
      updated_at: timestamp,
      deleted_at: null,
    };
  });
  await db.insertInto("domains").values(rows).execute();
}
