import { csvResponse, exportPortfolioCsv } from "../server/admin/portfolio-csv.server";
import { requireAdmin } from "../server/admin/session.server";
import type { Route } from "./+types/admin.export.domains";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return csvResponse(exportPortfolioCsv(), `portfolio-${new Date().toISOString().slice(0, 10)}.csv`);
}
