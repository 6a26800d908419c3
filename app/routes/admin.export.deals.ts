import { csvResponse } from "../server/admin/portfolio-csv.server";
import { requireAdmin } from "../server/admin/session.server";
import { exportDealsCsv } from "../server/sale/admin-deals.server";
import type { Route } from "./+types/admin.export.deals";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return csvResponse(exportDealsCsv(), `deals-${new Date().toISOString().slice(0, 10)}.csv`);
}
